"""The official `mcp.server.subscriptions` seam on ferrymcp: `MCPServer(subscriptions=bus)`
and the low-level `Server(on_subscriptions_listen=ListenHandler(bus))`. The engine serves
each `subscriptions/listen` stream (acknowledgement, filter, subscription id); the bus
carries the events to it, so one bus shared by two servers carries a change made on one to
a stream held by the other, as a pub/sub bus does between replicas. Each client is ferrymcp's
`Client` connected to the server through the engine, speaking 2026-07-28.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

ferrymcp = pytest.importorskip("ferrymcp")
pytest.importorskip("ferrymcp._native")

from ferrymcp import types  # noqa: E402
from ferrymcp.client.subscriptions import ResourceUpdated, SubscriptionLost, ToolsListChanged  # noqa: E402
from ferrymcp.exceptions import McpError  # noqa: E402
from ferrymcp.server.lowlevel import Server  # noqa: E402
from ferrymcp.server.mcpserver import Context, MCPServer  # noqa: E402
from ferrymcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ServerEvent  # noqa: E402


class RecordingBus(InMemorySubscriptionBus):
    """The in-process bus, remembering what was published on it."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[ServerEvent] = []

    async def publish(self, event: ServerEvent) -> None:
        self.published.append(event)
        await super().publish(event)


def board_server(bus: RecordingBus, name: str) -> MCPServer:
    mcp = MCPServer(name, subscriptions=bus)

    @mcp.tool()
    async def complete(board: str, ctx: Context) -> str:
        await ctx.notify_resource_updated(f"board://{board}")
        return "done"

    @mcp.tool()
    async def grow(ctx: Context) -> str:
        await ctx.notify_tools_changed()
        return "grown"

    return mcp


async def next_event(sub: Any) -> Any:
    return await asyncio.wait_for(anext(aiter(sub)), 10)


async def test_a_change_on_one_server_reaches_a_stream_on_another_through_the_shared_bus() -> None:
    bus = RecordingBus()
    first, second = board_server(bus, "first"), board_server(bus, "second")
    async with (
        ferrymcp.Client(first, mode="2026-07-28") as writer,
        ferrymcp.Client(second, mode="2026-07-28") as reader,
    ):
        async with reader.listen(resource_subscriptions=["board://sprint"], tools_list_changed=True) as sub:
            # A URI the stream did not ask for stays off it; the one it asked for arrives.
            await writer.call_tool("complete", {"board": "backlog"})
            await writer.call_tool("complete", {"board": "sprint"})
            assert await next_event(sub) == ResourceUpdated(uri="board://sprint")
            await writer.call_tool("grow", {})
            assert await next_event(sub) == ToolsListChanged()
    assert bus.published == [
        ResourceUpdated(uri="board://backlog"),
        ResourceUpdated(uri="board://sprint"),
        ToolsListChanged(),
    ]


async def test_the_lowlevel_server_serves_streams_fed_by_its_handlers_publishes() -> None:
    bus = InMemorySubscriptionBus()
    frames: list[Any] = []

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        await bus.publish(ResourceUpdated(uri="board://sprint"))
        return types.CallToolResult(content=[types.TextContent(type="text", text="done")])

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="complete", input_schema={"type": "object"})])

    async def on_message(message: Any) -> None:
        frames.append(message)

    server = Server(
        "sprint", on_call_tool=call_tool, on_list_tools=list_tools, on_subscriptions_listen=ListenHandler(bus)
    )
    async with ferrymcp.Client(server, mode="2026-07-28", message_handler=on_message) as client:
        async with client.listen(resource_subscriptions=["board://sprint"]) as sub:
            await client.call_tool("complete", {})
            assert await next_event(sub) == ResourceUpdated(uri="board://sprint")
    updates = [f for f in frames if isinstance(f, types.ResourceUpdatedNotification)]
    assert updates and updates[0].params.meta is not None
    assert "io.modelcontextprotocol/subscriptionId" in updates[0].params.meta


async def test_max_subscriptions_refuses_one_stream_too_many_before_its_acknowledgement() -> None:
    bus = InMemorySubscriptionBus()
    server = Server("capped", on_subscriptions_listen=ListenHandler(bus, max_subscriptions=1))
    async with ferrymcp.Client(server, mode="2026-07-28") as client:
        async with client.listen(tools_list_changed=True):
            with pytest.raises(McpError) as refused:
                async with client.listen(tools_list_changed=True):
                    pass
            assert refused.value.error.code == types.INTERNAL_ERROR
            assert refused.value.error.message == "Subscription limit reached"
        # The slot is free again once the first stream ended.
        async with client.listen(tools_list_changed=True) as sub:
            assert sub.honored.tools_list_changed is True


async def test_close_ends_the_open_streams_gracefully() -> None:
    bus = InMemorySubscriptionBus()
    handler = ListenHandler(bus)
    server = Server("closing", on_subscriptions_listen=handler)
    async with ferrymcp.Client(server, mode="2026-07-28") as client:
        async with client.listen(tools_list_changed=True) as sub:
            handler.close()
            # A graceful end finishes the loop; a dropped stream would raise SubscriptionLost.
            try:
                async with asyncio.timeout(10):
                    async for _ in sub:
                        pass
            except SubscriptionLost:  # pragma: no cover - the failure this test exists for
                pytest.fail("the stream ended as lost, not gracefully")


def test_what_the_engine_cannot_honour_is_refused_by_name() -> None:
    bus = InMemorySubscriptionBus()
    with pytest.raises(NotImplementedError, match="max_buffered_events"):
        ListenHandler(bus, max_buffered_events=8)
    with pytest.raises(NotImplementedError, match="on_subscriptions_listen"):
        Server("custom", on_subscriptions_listen=lambda ctx, params: None)
    with pytest.raises(TypeError, match="SubscriptionBus"):
        ListenHandler(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="SubscriptionBus"):
        MCPServer("wrong", subscriptions=object())  # type: ignore[arg-type]
