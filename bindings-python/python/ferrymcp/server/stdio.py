"""`stdio_server` (`mcp.server.stdio`): the `(read, write)` pair a low-level server's
`run()` serves stdio with.

The official pair is two memory streams a transport task fills from stdin and drains to
stdout. ferrymcp's engine reads and writes stdio itself, so its pair only says "stdio":
`Server.run(read, write, ...)` recognises it and serves through the engine.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


class StdioStream:
    """The stdio pair's one object (see the module doc); using it directly is refused."""

    async def send(self, message: Any) -> None:
        raise TypeError("this stream is ferrymcp's stdio: hand it to Server.run(), which serves it through the engine")

    async def receive(self) -> Any:
        raise TypeError("this stream is ferrymcp's stdio: hand it to Server.run(), which serves it through the engine")


@asynccontextmanager
async def stdio_server(stdin: Any = None, stdout: Any = None) -> AsyncIterator[tuple[StdioStream, StdioStream]]:
    """The `(read, write)` pair for stdio (custom `stdin`/`stdout` are refused)."""
    if stdin is not None or stdout is not None:
        raise TypeError(
            "stdio_server(stdin=, stdout=) is not supported by ferrymcp: the engine serves the process's stdio"
        )
    stream = StdioStream()
    yield stream, stream


__all__ = ["stdio_server"]
