"""The native bridge under trio: a stand-in for the few asyncio loop methods it calls.

The native bridge (`bindings-python/src/bridge.rs`, `call.rs`) talks to "the loop": it
makes futures (`create_future`), starts handler coroutines as tasks (`create_task`),
watches its inbox's socket (`add_reader`) and schedules a callback (`call_soon`). Under
asyncio that is the running asyncio loop; under trio it is the `TrioLoop` of the running
`trio.run` (one per run, kept in a `RunVar`), which does the same with trio's low-level
API, so the bridge itself exists once. `ferrymcp._aio.current_loop()` picks one or the
other (sniffio says which library runs).

The inbox is woken as under asyncio: a tokio thread writes one byte to a local socket and
never touches Python; a system task awaits `trio.lowlevel.wait_readable` on the read end
and runs the jobs on the trio thread. `TrioToken.run_sync_soon` would need the GIL on the
tokio thread (it is a Python call), which the bridge never takes there.

Futures are settled on the trio thread (by the inbox's jobs) and awaited with
`wait_task_rescheduled`; a waiter cancelled by a cancel scope cancels the future, and
cancelling a native future aborts its request in the engine (`bridge::AbortOnCancel`), as
cancelling an asyncio task cancels the future it awaits. Tasks are system tasks inside a
cancel scope of their own (`cancel()` cancels the scope); their outcome, exceptions
included, is kept for `result()` and never escapes into trio's system nursery (where it
would end the run with `TrioInternalError`). Like every system task they are cancelled
when the run's main task ends.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
from collections.abc import Callable, Coroutine, Generator
from typing import Any

import trio
import trio.testing

_PENDING, _DONE, _CANCELLED = 0, 1, 2


class Future:
    """An asyncio-shaped future on trio: settled on the trio thread, awaited by trio tasks."""

    def __init__(self, loop: TrioLoop | None = None) -> None:
        # The loop that counts this future as the engine's work in flight (native
        # futures only; see `TrioLoop.busy`).
        self._loop = loop
        if loop is not None:
            loop.busy(+1)
        self._state = _PENDING
        self._value: Any = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable[[Any], Any]] = []
        self._waiters: list[trio.lowlevel.Task] = []

    def done(self) -> bool:
        return self._state != _PENDING

    def cancelled(self) -> bool:
        return self._state == _CANCELLED

    def result(self) -> Any:
        if self._state == _CANCELLED:
            raise asyncio.CancelledError()
        if self._state == _PENDING:
            raise asyncio.InvalidStateError("Result is not set.")
        if self._error is not None:
            raise self._error
        return self._value

    def exception(self) -> BaseException | None:
        if self._state == _CANCELLED:
            raise asyncio.CancelledError()
        return self._error

    def set_result(self, value: Any) -> None:
        if self._state == _PENDING:
            self._value = value
            self._finish(_DONE)

    def set_exception(self, error: BaseException) -> None:
        if self._state == _PENDING:
            self._error = error
            self._finish(_DONE)

    def cancel(self, msg: Any = None) -> bool:
        if self._state != _PENDING:
            return False
        self._finish(_CANCELLED)
        return True

    def add_done_callback(self, callback: Callable[[Any], Any], *, context: Any = None) -> None:
        if self._state == _PENDING:
            self._callbacks.append(callback)
        else:
            _call(callback, self)

    def remove_done_callback(self, callback: Callable[[Any], Any]) -> int:
        before = len(self._callbacks)
        self._callbacks = [c for c in self._callbacks if c != callback]
        return before - len(self._callbacks)

    def _finish(self, state: int) -> None:
        self._state = state
        self.background()
        waiters, self._waiters = self._waiters, []
        for task in waiters:
            trio.lowlevel.reschedule(task)
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            _call(callback, self)

    def background(self) -> None:
        """Counts this future no more as work in flight (for one that waits for an end,
        such as a stream's close, not for an answer)."""
        loop, self._loop = self._loop, None
        if loop is not None:
            loop.busy(-1)

    def __await__(self) -> Generator[Any, None, Any]:
        if self._state == _PENDING:
            yield from self._wait().__await__()
        else:
            yield from trio.lowlevel.checkpoint().__await__()
        return self.result()

    async def _wait(self) -> None:
        task = trio.lowlevel.current_task()
        self._waiters.append(task)

        def abort(_raise_cancel: Any) -> trio.lowlevel.Abort:
            if task in self._waiters:
                self._waiters.remove(task)
            # The awaiting task was cancelled: so is what it awaited (and the engine's
            # request behind a native future), as asyncio does.
            self.cancel()
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)


def _call(callback: Callable[[Any], Any], future: Future) -> None:
    _guarded(callback, future)


def _guarded(callback: Callable[..., Any], *args: Any) -> None:
    """Runs a callback whose failure is its own (logged, as asyncio logs a failing
    callback): raised into trio's scheduler it would end the run."""
    try:
        callback(*args)
    except Exception:
        import logging

        logging.getLogger("ferrymcp").exception("callback %r raised", callback)


class Task(Future):
    """A coroutine run as a trio system task, in a cancel scope of its own."""

    def __init__(self, coro: Coroutine[Any, Any, Any], context: contextvars.Context | None = None) -> None:
        super().__init__()
        self._scope = trio.CancelScope()
        self._coro = coro
        trio.lowlevel.spawn_system_task(self._run, name=getattr(coro, "__qualname__", None), context=context)

    async def _run(self) -> None:
        try:
            with self._scope:
                value = await self._coro
                self.set_result(value)
                return
        except trio.Cancelled:  # the run is ending: every system task is cancelled
            pass
        except BaseException as error:  # kept for result(); a system task must not raise
            self.set_exception(error)
            return
        super().cancel()

    def cancel(self, msg: Any = None) -> bool:
        if self.done():
            return False
        self._scope.cancel()
        return True

    def get_coro(self) -> Coroutine[Any, Any, Any]:
        return self._coro


class TrioLoop:
    """The loop methods the bridge and the client call, for the running `trio.run`."""

    def __init__(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._closed = False
        self._busy = 0
        clock = trio.lowlevel.current_clock()
        self._clock = clock if isinstance(clock, trio.testing.MockClock) else None
        self._held: float | None = None
        self._releasing = False

    def create_future(self) -> Future:
        return Future(self)

    def busy(self, change: int) -> None:
        """Counts the native futures pending: the engine's work in flight.

        Only for trio's autojumping `MockClock` (trio.testing), which jumps to the next
        deadline whenever no trio task can run: while the engine works on another thread
        trio looks idle, and a `fail_after` around a call would expire at once. So the
        clock is held (its `autojump_threshold` set to infinity, which trio lets a program
        change at any time) while futures are pending, and let go (the threshold put back)
        once none has been for `_QUIET` seconds of real time with every trio task blocked,
        which also covers what the engine posts just after an answer (a notification that
        follows it).
        """
        self._busy += change
        clock = self._clock
        if clock is None:
            return
        if self._busy > 0 and self._held is None:
            self._held = clock.autojump_threshold
            clock.autojump_threshold = math.inf
        elif self._busy == 0 and self._held is not None and not self._releasing:
            try:
                trio.lowlevel.spawn_system_task(self._release, name="ferrymcp clock release")
                self._releasing = True
            except RuntimeError:  # the run is ending (its system nursery is closed)
                pass

    async def _release(self) -> None:
        try:
            await trio.testing.wait_all_tasks_blocked(cushion=_QUIET)
            if self._busy == 0 and self._held is not None and self._clock is not None:
                self._clock.autojump_threshold, self._held = self._held, None
        except trio.Cancelled:
            pass
        finally:
            self._releasing = False

    def create_task(self, coro: Coroutine[Any, Any, Any], *, name: Any = None, context: Any = None) -> Task:
        return Task(coro, context if context is not None else contextvars.copy_context())

    def call_soon(self, callback: Callable[..., Any], *args: Any, context: Any = None) -> None:
        self.call_soon_threadsafe(callback, *args)

    def call_soon_threadsafe(self, callback: Callable[..., Any], *args: Any, context: Any = None) -> None:
        try:
            self._token.run_sync_soon(_guarded, callback, *args)
        except trio.RunFinishedError:
            self._closed = True

    def is_closed(self) -> bool:
        return self._closed

    def add_reader(self, fileno: int, callback: Callable[[], Any]) -> None:
        """Runs `callback` on the trio thread whenever `fileno` is readable (the callback
        reads it), until the run ends."""

        async def watch() -> None:
            try:
                while True:
                    await trio.lowlevel.wait_readable(fileno)
                    _guarded(callback)
            except trio.Cancelled:
                self._closed = True

        trio.lowlevel.spawn_system_task(watch, name="ferrymcp inbox")


# Real seconds of quiet (no native future pending, every trio task blocked) before an
# autojumping MockClock may jump again (see `TrioLoop.busy`).
_QUIET = 0.1

_LOOP: trio.lowlevel.RunVar[TrioLoop] = trio.lowlevel.RunVar("ferrymcp_loop")


def current_loop() -> TrioLoop:
    """The running `trio.run`'s `TrioLoop`, made on first use."""
    try:
        return _LOOP.get()
    except LookupError:
        loop = TrioLoop()
        _LOOP.set(loop)
        return loop


def checkpoint() -> Coroutine[Any, Any, None]:
    return trio.lowlevel.checkpoint()


def event() -> trio.Event:
    return trio.Event()


async def to_thread(fn: Callable[..., Any], /, *args: Any) -> Any:
    return await trio.to_thread.run_sync(fn, *args)


async def wait_all(tasks: list[Any]) -> None:
    for task in tasks:
        try:
            await task
        except (Exception, asyncio.CancelledError):
            pass


async def wait_for(awaitable: Any, timeout: float) -> Any:
    with trio.fail_after(timeout):
        return await awaitable


def background(future: Any) -> Any:
    """`future`, no more counted as the engine's work in flight (`Future.background`)."""
    if isinstance(future, Future):
        future.background()
    return future
