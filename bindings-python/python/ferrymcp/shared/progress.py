"""1.x's `mcp.shared.progress` (gone from 2.x): `with progress(ctx, total) as p: await
p.progress(amount)` reports a running total on the request `ctx` serves. Each report goes
through the request's session (`send_progress_notification`), so the engine sends it with
the request's own progress token, as `ctx.report_progress` does."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Progress", "ProgressContext", "progress"]


@dataclass
class Progress:
    """One progress report: how far, of how much."""

    progress: float
    total: float | None


@dataclass
class ProgressContext:
    """A running total of progress on one request: `await p.progress(amount)` adds `amount`
    and reports the new total."""

    session: Any
    progress_token: str | int
    total: float | None
    current: float = field(default=0.0, init=False)

    async def progress(self, amount: float, message: str | None = None) -> None:
        self.current += amount
        await self.session.send_progress_notification(
            self.progress_token, self.current, total=self.total, message=message
        )


def _progress_token(meta: Any) -> str | int | None:
    if meta is None:
        return None
    if isinstance(meta, Mapping):
        token = meta.get("progressToken", meta.get("progress_token"))
    else:
        token = getattr(meta, "progressToken", None)
    return token if isinstance(token, str | int) else None


@contextmanager
def progress(ctx: Any, total: float | None = None) -> Generator[ProgressContext, None, None]:
    """The progress of the request `ctx` (a `RequestContext`, `ctx.request_context` in a
    tool, or the low-level `ServerRequestContext`) serves; a `ValueError` when its caller
    asked for none (no progress token)."""
    token = _progress_token(getattr(ctx, "meta", None))
    if token is None:
        raise ValueError("No progress token provided")
    yield ProgressContext(ctx.session, token, total)
