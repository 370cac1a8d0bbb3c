"""A stdio server whose stdin and stdout something else in the process made non-blocking
(asyncio's pipe transports do, so do libraries that poll stdin) keeps serving: the engine
waits for readiness instead of taking EAGAIN for the end of its input. Driven by the
official SDK's client over a real child process, with several round trips so the server
waits for input between frames, then ended by closing its stdin.
"""

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("ferrymcp._native")

SERVER = """
import os, sys
from ferrymcp.server import MCPServer

mcp = MCPServer("nonblocking")

@mcp.tool()
def echo(text: str) -> str:
    return text

os.set_blocking(sys.stdin.fileno(), False)
os.set_blocking(sys.stdout.fileno(), False)
mcp.run()
"""


async def test_a_non_blocking_stdin_and_stdout_keep_serving(tmp_path: Path) -> None:
    mcp = pytest.importorskip("mcp")
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(script)])
    async with mcp.Client(params, mode="legacy") as client:
        for i in range(5):
            assert (await client.call_tool("echo", {"text": f"call {i}"})).content[0].text == f"call {i}"
        # A result larger than a pipe's buffer: stdout must wait for the reader, not fail.
        big = "x" * (1 << 20)
        assert (await client.call_tool("echo", {"text": big})).content[0].text == big


async def test_it_still_ends_with_its_stdin(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(script), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdin is not None
    process.stdin.close()
    assert await asyncio.wait_for(process.wait(), 30) == 0
