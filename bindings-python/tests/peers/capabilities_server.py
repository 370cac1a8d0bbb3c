"""One server, written against the official SDK's `MCPServer` API, whose capabilities
depend on what it registers: `capabilities_server.py <sdk> <shape> [http]`, `sdk` `official`
(the `mcp` package) or `ferrymcp` (the same code on ferrymcp's modules), `shape` `empty`,
`tools`, `prompts`, `completion`, `extension`, `subscribe` (resource subscriptions served by
handlers registered as the official everything server registers them), or, for ferrymcp only, `fastmcp` (1.x's
`FastMCP`) and `lowlevel-v1` (the low-level `Server` with 1.x's decorators). Over stdio, or
with `http` over Streamable HTTP on a port the OS chooses (uvicorn, or ferrymcp's
`listening on`, names it on stderr). test_capabilities.py runs both and compares what they
declare."""

from __future__ import annotations

import sys
from typing import Any

if sys.argv[1] == "official":
    from mcp.server.extension import Extension, ToolBinding
    from mcp.server.mcpserver import MCPServer
else:
    from ferrymcp.server.extension import Extension, ToolBinding  # type: ignore[assignment]
    from ferrymcp.server.mcpserver import MCPServer  # type: ignore[assignment]

shape = sys.argv[2]


def ping() -> str:
    """Answers pong."""
    return "pong"


class Ui(Extension):
    identifier = "io.modelcontextprotocol/ui"

    def settings(self) -> dict[str, Any]:
        return {"mimeTypes": ["text/html;profile=mcp-app"]}

    def tools(self) -> list[ToolBinding]:
        return [ToolBinding(ping, meta={"ui": {"resourceUri": "ui://ping"}})]


if shape == "fastmcp":
    from ferrymcp.server.fastmcp import FastMCP

    mcp = FastMCP(f"capabilities-{shape}")
    mcp.add_tool(ping)
elif shape == "lowlevel-v1":
    import anyio

    from ferrymcp.server.lowlevel import Server
    from ferrymcp.server.stdio import stdio_server
    from ferrymcp.types import Resource, Tool

    server = Server("capabilities-lowlevel-v1")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return []

    @server.list_resources()
    async def list_resources() -> list[Resource]:
        return []

    @server.subscribe_resource()
    async def subscribe(uri: Any) -> None:
        return None

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
    sys.exit(0)
else:
    mcp = MCPServer(f"capabilities-{shape}", extensions=[Ui()] if shape == "extension" else None)

if shape == "tools":
    mcp.add_tool(ping)

    @mcp.tool()
    def nobody() -> list[str]:
        """Names no one (an empty list: `content: []`)."""
        return []


if shape == "prompts":

    @mcp.prompt()
    def greet() -> str:
        """A greeting."""
        return "hello"


if shape == "subscribe":

    @mcp.resource("doc://a")
    def doc() -> str:
        return "a"

    if sys.argv[1] == "official":
        from mcp.types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams
    else:
        from ferrymcp.types import (  # type: ignore[assignment]
            EmptyResult,
            SubscribeRequestParams,
            UnsubscribeRequestParams,
        )

    async def subscription(ctx: Any, params: Any) -> Any:
        return EmptyResult()

    mcp._lowlevel_server.add_request_handler("resources/subscribe", SubscribeRequestParams, subscription)
    mcp._lowlevel_server.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, subscription)


if shape == "completion":

    @mcp.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> None:
        return None


if sys.argv[3:] == ["http"]:
    mcp.run("streamable-http", host="127.0.0.1", port=0)
else:
    mcp.run()
