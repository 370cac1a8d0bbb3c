"""Which async library runs, and the few things ferrymcp's Python side does with it.

ferrymcp runs under asyncio and under trio (as the official SDK, through anyio, does).
The native bridge talks to "the loop" (`current_loop()`): the running asyncio loop, or
the `ferrymcp._trio.TrioLoop` of the running `trio.run`, which offers the same few loop
methods. The library is detected with sniffio, as anyio detects it (trio depends on
sniffio, so it is there whenever trio runs; asyncio's running loop is asked first, a C
call, because it is the common case). Any other library raises a `RuntimeError` naming
it. Nothing here is imported by `import ferrymcp`: asyncio and trio load when first used.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any


def library() -> str:
    """`"asyncio"` or `"trio"`, whichever runs this task; a `RuntimeError` otherwise."""
    import asyncio

    if asyncio._get_running_loop() is not None:
        return "asyncio"
    try:
        import sniffio
    except ImportError:  # no sniffio: neither trio nor anyio is installed
        raise RuntimeError("no running event loop") from None
    try:
        name = sniffio.current_async_library()
    except sniffio.AsyncLibraryNotFoundError:
        raise RuntimeError("no running event loop") from None
    if name not in ("asyncio", "trio"):
        raise RuntimeError(f"ferrymcp runs under asyncio or trio, not under {name}")
    return name


def current_loop() -> Any:
    """The loop the native bridge posts to: asyncio's running loop, or trio's stand-in."""
    import asyncio

    loop = asyncio._get_running_loop()
    if loop is not None:
        return loop
    library()  # raises for no library and for one other than trio
    from ferrymcp import _trio

    return _trio.current_loop()


def under_trio() -> bool:
    return library() == "trio"


def unsupported_under_trio(what: str) -> None:
    """Raises a clear error when `what` runs under trio, which it does not support."""
    if under_trio():
        raise NotImplementedError(f"{what} is not supported by ferrymcp under trio; run it under asyncio")


def spawn(coro: Coroutine[Any, Any, Any]) -> Any:
    """Runs `coro` as a task of the running loop (an asyncio task, or a trio system task
    with the same methods: `done`, `cancel`, `add_done_callback`, awaitable)."""
    return current_loop().create_task(coro)


def event() -> Any:
    """An event of the running library (`set`, `is_set`, `wait`; no `clear`)."""
    if under_trio():
        from ferrymcp import _trio

        return _trio.event()
    import asyncio

    return asyncio.Event()


async def checkpoint() -> None:
    """Lets the other tasks run (`asyncio.sleep(0)`)."""
    if under_trio():
        from ferrymcp import _trio

        await _trio.checkpoint()
        return
    import asyncio

    await asyncio.sleep(0)


async def to_thread(fn: Callable[..., Any], /, *args: Any) -> Any:
    """`fn(*args)` on a worker thread, the context variables carried over."""
    if under_trio():
        from ferrymcp import _trio

        return await _trio.to_thread(fn, *args)
    import asyncio

    return await asyncio.to_thread(fn, *args)


async def wait_all(tasks: list[Any]) -> None:
    """Waits for every task to end, whatever its outcome."""
    if under_trio():
        from ferrymcp import _trio

        await _trio.wait_all(tasks)
        return
    import asyncio

    await asyncio.gather(*tasks, return_exceptions=True)


async def wait_for(awaitable: Any, timeout: float) -> Any:
    """`awaitable`'s result, or `TimeoutError` after `timeout` seconds."""
    if under_trio():
        from ferrymcp import _trio

        try:
            return await _trio.wait_for(awaitable, timeout)
        except Exception as error:
            if type(error).__name__ == "TooSlowError":
                raise TimeoutError() from error
            raise
    import asyncio

    return await asyncio.wait_for(awaitable, timeout)


async def uncancelled(awaitable: Any) -> Any:
    """Awaits `awaitable` to its end even in a cancelled scope (for a cleanup that must
    finish: under trio every await in a cancelled scope is cancelled; under asyncio a
    cancellation is delivered once, so a cleanup after it runs as it is)."""
    if under_trio():
        import trio

        with trio.CancelScope(shield=True):
            return await awaitable
    return await awaitable


def background(awaitable: Any) -> Any:
    """`awaitable` (a native one), marked as waiting for an end rather than an answer:
    under trio it does not count as the engine's work in flight, which holds an
    autojumping `MockClock` still (`ferrymcp._trio.TrioLoop.busy`)."""
    if type(awaitable).__module__ == "ferrymcp._trio":
        from ferrymcp import _trio

        _trio.background(awaitable)
    return awaitable
