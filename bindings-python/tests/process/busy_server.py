"""A stdio server whose tools stay busy until they are stopped, for the Ctrl-C and
cancellation tests.

`python busy_server.py MARKER [http]`: serves stdio, or Streamable HTTP on a free port of
127.0.0.1 (announced on stderr) with `http`. Each busy tool creates the file MARKER once it is running
(so a test knows the call is in flight), then waits far longer than any test does; a
tool that learns its request was cancelled creates MARKER.cancelled.
"""

import asyncio
import sys
import threading
from pathlib import Path

from ferrymcp import Context, MCPServer

MARKER = Path(sys.argv[1])
CANCELLED = MARKER.with_suffix(".cancelled")
mcp = MCPServer("busy")


@mcp.tool()
async def nap() -> str:
    """Async: awaits on the event loop; cancelling the request cancels its task."""
    MARKER.touch()
    try:
        await asyncio.sleep(600)
    except asyncio.CancelledError:
        CANCELLED.touch()
        raise
    return "woke"


@mcp.tool()
def block() -> str:
    """Sync: blocks its worker thread."""
    MARKER.touch()
    threading.Event().wait(600)
    return "unblocked"


@mcp.tool()
def poll(ctx: Context) -> str:
    """Sync: works until `ctx.is_cancelled()` says the client gave up."""
    MARKER.touch()
    stop = threading.Event()
    while not ctx.is_cancelled():
        stop.wait(0.01)
    CANCELLED.touch()
    return "stopped"


@mcp.tool()
def echo(text: str) -> str:
    return text


if __name__ == "__main__":
    if sys.argv[2:] == ["http"]:
        mcp.run("streamable-http", port=0)
    else:
        mcp.run()
