"""A server with middleware and a tool-call interceptor, for test_middleware.py: imported
there (in memory) and run as a stdio server process. The `seen` tool answers what the
middleware recorded: each message's method and whether it had a request id."""

from __future__ import annotations

import json
from typing import Any

from ferrymcp.exceptions import McpError
from ferrymcp.server.context import CallNext, HandlerResult, ServerRequestContext
from ferrymcp.server.extension import Extension
from ferrymcp.server.mcpserver import MCPServer
from ferrymcp.types import INVALID_REQUEST, CallToolResult, TextContent


class Shout(Extension):
    """Upper-cases what the `echo` tool answers."""

    identifier = "com.example/shout"

    async def intercept_tool_call(self, params: Any, ctx: Any, call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if params.name != "echo":
            return result
        loud = result.content[0].text.upper()
        # The tool declares an output schema ({"result": str}), so the rewrite keeps the
        # structured content in step (a client checks it against the schema).
        return CallToolResult(content=[TextContent(type="text", text=loud)], structured_content={"result": loud})


def server() -> MCPServer[Any]:
    seen: list[tuple[str, bool]] = []

    async def record(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        seen.append((ctx.method, ctx.request_id is not None))
        return await call_next(ctx)

    async def gate(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call" and (ctx.params or {}).get("name") == "forbidden":
            raise McpError(INVALID_REQUEST, "No calls on Sundays.")
        return await call_next(ctx)

    mcp = MCPServer("gated", middleware=[record, gate], extensions=[Shout()])

    @mcp.tool()
    def echo(text: str) -> str:
        return text

    @mcp.tool()
    def forbidden() -> str:
        return "never"

    @mcp.tool(name="seen")
    def seen_tool() -> str:
        return json.dumps(seen)

    return mcp


if __name__ == "__main__":
    server().run()
