"""`stdio_client` and `StdioServerParameters` at the official path (`mcp.client.stdio`).

    async with stdio_client(StdioServerParameters(command="python", args=["server.py"])) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

The child process is started by the engine when the `ClientSession` opens (with the
official default environment plus `env`, in `cwd`) and stopped when it closes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TextIO

from ferrymcp.client import StdioServerParameters, _check_encoding
from ferrymcp.client._streams import TransportStream


def get_default_environment() -> dict[str, str]:
    """The environment variables a child server inherits by default (the official list)."""
    from ferrymcp._native import default_environment

    environment: dict[str, str] = default_environment()
    return environment


@asynccontextmanager
async def stdio_client(
    server: StdioServerParameters | Any, errlog: TextIO | None = None
) -> AsyncIterator[tuple[TransportStream, TransportStream]]:
    """The `(read, write)` pair for a server started as a child process."""
    if errlog is not None:
        raise TypeError(
            "stdio_client(errlog=...) is not supported by ferrymcp: the child's stderr is inherited "
            "(use ferrymcp.Client or the process's own stderr redirection)"
        )
    _check_encoding(server)
    stream = TransportStream(server)
    yield stream, stream


__all__ = ["StdioServerParameters", "get_default_environment", "stdio_client"]
