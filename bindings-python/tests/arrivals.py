"""What client callbacks deliver, kept in arrival order and awaitable.

A callback (progress, logging, a message handler) runs on the loop some time after the
notification arrived, possibly after the call that caused it has returned. A test waits for
the arrival it expects (`await seen.reach(n)`), never for a stretch of time; the limit only
keeps a broken engine from hanging the suite.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

T = TypeVar("T")

LIMIT = 10.0


class Arrivals(list[T]):
    """A list whose `append` (from a callback on the loop) wakes whoever awaits `reach`."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: asyncio.Event | None = None

    def append(self, item: T) -> None:
        super().append(item)
        if self._changed is not None:
            self._changed.set()

    async def reach(self, count: int, limit: float = LIMIT) -> None:
        """Returns once `count` items have arrived; fails after `limit` seconds without."""

        async def wait() -> None:
            self._changed = asyncio.Event()
            while len(self) < count:
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(wait(), limit)
        except TimeoutError:
            raise AssertionError(f"{count} arrivals expected within {limit} s, got {len(self)}: {self!r}") from None
