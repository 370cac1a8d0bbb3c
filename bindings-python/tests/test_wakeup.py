"""The native bridge on an asyncio loop without `add_reader`, as Windows' default
`ProactorEventLoop` is: ferrymcp must wake such a loop through a `sock_recv` task
(`ferrymcp._wakeup`) instead of failing.

The loop here is the standard selector loop with `add_reader` raising
`NotImplementedError`, exactly what the Proactor's does; everything else is real: an
in-memory client and server (the bridge settling awaitables and starting sync and async
tools) and a client over stdio to a real child server.
"""

import asyncio
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from seed_tools import seed_with_import

from ferrymcp import Client, MCPServer, _wakeup


class LoopWithoutAddReader(asyncio.SelectorEventLoop):
    refused = 0

    def add_reader(self, *args: Any) -> None:
        self.refused += 1
        raise NotImplementedError


def run(main: Coroutine[Any, Any, None]) -> LoopWithoutAddReader:
    """Runs `main` as `asyncio.run` does (which takes no loop class before 3.12): then
    cancels what is left, the wake-up task included, and closes the loop."""
    loop = LoopWithoutAddReader()
    try:
        loop.run_until_complete(main)
        left = asyncio.all_tasks(loop)
        for task in left:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
    finally:
        loop.close()
    return loop


def test_in_memory_calls_on_a_loop_without_add_reader() -> None:
    mcp = MCPServer("wakeup")

    @mcp.tool()
    def add(a: int, b: int) -> int:
        return a + b

    @mcp.tool()
    async def double(x: int) -> int:
        await asyncio.sleep(0)
        return 2 * x

    async def main() -> None:
        async with Client(mcp, mode="legacy") as c:
            assert len(_wakeup._pumps) == 1, "the loop is woken by a sock_recv task"
            assert (await c.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
            calls = [c.call_tool("double", {"x": i}) for i in range(50)]
            results = await asyncio.gather(*calls)
            assert [r.structured_content for r in results] == [{"result": 2 * i} for i in range(50)]

    assert run(main()).refused == 1
    assert not _wakeup._pumps, "the task ends with the loop"


def test_a_stdio_client_on_a_loop_without_add_reader(tmp_path: Path) -> None:
    command = [sys.executable, str(seed_with_import("ferrymcp", tmp_path))]

    async def main() -> None:
        async with Client(command, mode="auto") as c:
            assert (await c.call_tool("add", {"a": 40, "b": 2})).structured_content == {"result": 42}
            assert (await c.read_resource("greeting://Ada")).contents[0].text == "Hello, Ada!"

    assert run(main()).refused == 1
