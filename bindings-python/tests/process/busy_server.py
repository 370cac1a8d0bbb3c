"""A stdio server whose tools stay busy until they are stopped, for the Ctrl-C tests.

`python busy_server.py MARKER`: each tool creates the file MARKER once it is running (so a
test knows the call is in flight), then waits far longer than any test does.
"""

import asyncio
import sys
import threading
from pathlib import Path

from ferrymcp import MCPServer

MARKER = Path(sys.argv[1])
mcp = MCPServer("busy")


@mcp.tool()
async def nap() -> str:
    """Async: awaits on the event loop."""
    MARKER.touch()
    await asyncio.sleep(600)
    return "woke"


@mcp.tool()
def block() -> str:
    """Sync: blocks its worker thread."""
    MARKER.touch()
    threading.Event().wait(600)
    return "unblocked"


if __name__ == "__main__":
    mcp.run()
