"""Servers built with the official SDK (PyPI `mcp`) for ferrymcp's client cache and
output-schema tests (test_client_cache.py), over stdio.

`cache`: an `MCPServer` with `cache_hints` (tools/list one minute public, resources/read
one minute private, prompts/list none); every read of `counter://n` answers the next
number, `add_tool` adds a tool without telling anyone, `change_tools` adds one and
publishes tools list_changed, so a served cache entry is told from a fetch by its payload.

`schema`: a low-level `Server` whose tools declare an `outputSchema` and answer with
structured content that keeps it (`good`), breaks it (`bad`), leaves it out (`missing`)
or fail (`failing`, an error result without it).
"""

import sys
from typing import Any

from mcp.server import CacheHint, Server, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams, TextContent, Tool


def cache_server() -> MCPServer:
    mcp = MCPServer(
        "official-cache",
        cache_hints={
            "tools/list": CacheHint(ttl_ms=60_000, scope="public"),
            "resources/read": CacheHint(ttl_ms=60_000),
        },
    )
    reads = [0]
    added = [0]

    def extra() -> str:
        return "extra"

    @mcp.resource("counter://n")
    def counter() -> str:
        reads[0] += 1
        return str(reads[0])

    @mcp.prompt()
    def hello() -> str:
        return "hello"

    @mcp.tool()
    def add_tool() -> str:
        added[0] += 1
        mcp.add_tool(extra, name=f"extra{added[0]}")
        return f"extra{added[0]}"

    @mcp.tool()
    async def change_tools(ctx: Context) -> str:
        added[0] += 1
        mcp.add_tool(extra, name=f"extra{added[0]}")
        await ctx.notify_tools_changed()
        return f"extra{added[0]}"

    return mcp


SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def schema_server() -> Server[Any]:
    async def list_tools(ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        names = ["good", "bad", "missing", "failing"]
        tools = [Tool(name=name, input_schema={"type": "object"}, output_schema=SCHEMA) for name in names]
        return ListToolsResult(tools=[*tools, Tool(name="plain", input_schema={"type": "object"})])

    async def call_tool(ctx: ServerRequestContext[Any], params: CallToolRequestParams) -> CallToolResult:
        text = [TextContent(type="text", text=params.name)]
        if params.name == "good":
            return CallToolResult(content=text, structured_content={"n": 1})
        if params.name == "bad":
            return CallToolResult(content=text, structured_content={"n": "one"})
        if params.name == "failing":
            return CallToolResult(content=text, is_error=True)
        return CallToolResult(content=text)

    return Server("official-schema", on_list_tools=list_tools, on_call_tool=call_tool)


if __name__ == "__main__":
    if sys.argv[1] == "cache":
        cache_server().run("stdio")
    else:
        import anyio
        from mcp.server.stdio import stdio_server

        server = schema_server()

        async def main() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(main)
