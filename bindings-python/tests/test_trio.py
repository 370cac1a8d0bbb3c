"""ferrymcp under trio, as the official SDK runs there through anyio: `Client` and
`ClientSession` over a real stdio child and a real Streamable HTTP server, an in-memory
`MCPServer` (its handlers then run as trio tasks) with a listen stream, and a trio cancel
scope that cancels a call: the request is cancelled on the server, whose tool sees it.

Each test drives the client with `trio.run`; the servers are the busy server of the
cancellation tests (`process/busy_server.py`), over stdio or on HTTP.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import trio
from raw_stdio import PATIENCE
from serving import Served

from ferrymcp import Client, ClientSession, Context, MCPServer, StdioServerParameters
from ferrymcp.client.stdio import stdio_client
from ferrymcp.client.streamable_http import streamable_http_client
from ferrymcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated
from ferrymcp.types import TextContent, TextResourceContents

BUSY = Path(__file__).resolve().parent / "process" / "busy_server.py"


async def appears(path: Path) -> None:
    """Waits (under trio) for a file a busy tool creates."""
    deadline = time.monotonic() + PATIENCE
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        await trio.sleep(0.02)


async def cancel_a_busy_call(client: Client, marker: Path) -> None:
    """Starts the busy `nap` tool in a cancel scope, cancels the scope once the tool runs,
    and waits until the server's tool saw the cancellation; the connection goes on."""
    outcome: list[Any] = []

    async def call(scope: trio.CancelScope) -> None:
        with scope:
            outcome.append(await client.call_tool("nap", {}))

    async with trio.open_nursery() as nursery:
        scope = trio.CancelScope()
        nursery.start_soon(call, scope)
        await appears(marker)
        scope.cancel()
    assert outcome == []  # the call ended by the cancellation, not by an answer
    await appears(marker.with_suffix(".cancelled"))
    echo = await client.call_tool("echo", {"text": "after"})
    assert echo.content == [TextContent(text="after")]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_client_over_stdio_under_trio(tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "running"

    async def main() -> None:
        async with Client([sys.executable, str(BUSY), str(marker)], mode=mode) as client:
            tools = await client.list_tools()
            assert {"nap", "poll", "echo"} <= {tool.name for tool in tools.tools}
            result = await client.call_tool("echo", {"text": "under trio"})
            assert result.content == [TextContent(text="under trio")]
            await cancel_a_busy_call(client, marker)

    trio.run(main)


def test_client_session_over_stdio_client_under_trio(tmp_path: Path) -> None:
    marker = tmp_path / "running"
    params = StdioServerParameters(command=sys.executable, args=[str(BUSY), str(marker)])

    async def main() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            initialized = await session.initialize()
            assert initialized.server_info.name == "busy"
            result = await session.call_tool("echo", {"text": "a session"})
            assert result.content == [TextContent(text="a session")]
            await cancel_a_busy_call(session, marker)

    trio.run(main)


@pytest.fixture
def http_server(tmp_path: Path) -> Any:
    marker = tmp_path / "running"
    served = Served([sys.executable, str(BUSY), str(marker), "http"], r"listening on (\S+)")
    yield served, marker
    served.stop()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_client_over_http_under_trio(http_server: Any, mode: str) -> None:
    served, marker = http_server

    async def main() -> None:
        async with Client(served.url, mode=mode) as client:
            result = await client.call_tool("echo", {"text": "over http"})
            assert result.content == [TextContent(text="over http")]
            await cancel_a_busy_call(client, marker)

    trio.run(main)


def test_client_session_over_streamable_http_under_trio(http_server: Any) -> None:
    served, marker = http_server

    async def main() -> None:
        async with streamable_http_client(served.url) as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("echo", {"text": "a session over http"})
            assert result.content == [TextContent(text="a session over http")]

    trio.run(main)


def test_an_in_memory_server_and_its_listen_stream_under_trio() -> None:
    """The server's handlers run as trio tasks (an async tool, a sync resource on a worker
    thread); a tool's resource update reaches the client's listen stream."""
    board = {"design": False, "ship": False}
    mcp = MCPServer("board")

    @mcp.resource("board://sprint")
    def sprint() -> str:
        return " ".join(f"{task}={done}" for task, done in board.items())

    @mcp.tool()
    async def complete(task: str, ctx: Context) -> str:
        board[task] = True
        await ctx.notify_resource_updated("board://sprint")
        return f"{task}: done"

    async def read(client: Client) -> str:
        [contents] = (await client.read_resource("board://sprint")).contents
        assert isinstance(contents, TextResourceContents)
        return contents.text

    async def main() -> list[str]:
        seen: list[str] = []
        async with Client(mcp) as client, client.listen(resource_subscriptions=["board://sprint"]) as sub:
            seen.append(await read(client))

            async def watch() -> None:
                async for _event in sub:
                    seen.append(await read(client))
                    if "False" not in seen[-1]:
                        return

            async with trio.open_nursery() as nursery:
                nursery.start_soon(watch)
                for task in board:
                    await client.call_tool("complete", {"task": task})
        return seen

    seen = trio.run(main)
    assert seen[0] == "design=False ship=False"
    assert seen[-1] == "design=True ship=True"


def test_client_session_over_streams_of_its_own_under_trio() -> None:
    """Two anyio memory streams carry the messages (`ferrymcp._carried` on trio tasks),
    with `MCPServer.run_streams_async` at their other end in the same run."""
    import anyio

    mcp = MCPServer("streams")

    @mcp.tool()
    async def add(a: int, b: int) -> int:
        await trio.lowlevel.checkpoint()
        return a + b

    async def main() -> None:
        to_server, server_reads = anyio.create_memory_object_stream[Any](8)
        to_client, client_reads = anyio.create_memory_object_stream[Any](8)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(mcp.run_streams_async, server_reads, to_client)
            async with ClientSession(client_reads, to_server) as session:
                await session.initialize()
                result = await session.call_tool("add", {"a": 1, "b": 2})
                assert result.content == [TextContent(text="3")]
            nursery.cancel_scope.cancel()

    trio.run(main)


def test_a_subscription_bus_under_trio() -> None:
    """`InMemorySubscriptionBus.publish` yields to trio's other tasks (a checkpoint)."""
    bus = InMemorySubscriptionBus()
    events: list[Any] = []
    bus.subscribe(events.append)

    async def main() -> None:
        await bus.publish(ResourceUpdated(uri="board://sprint"))

    trio.run(main)
    assert events == [ResourceUpdated(uri="board://sprint")]


def test_the_asgi_app_refuses_trio_by_name() -> None:
    mcp = MCPServer("asgi")
    mcp.streamable_http_app()

    async def main() -> None:
        async with mcp.session_manager.run():
            pass

    with pytest.raises(NotImplementedError, match=r"ASGI app .* is not supported by ferrymcp under trio"):
        trio.run(main)
