"""A low-level server in the official 1.x decorator style whose list handlers take the
request (`request.params.cursor`, as 1.x's pagination example does) and whose
`read_resource` handler reads the URI as pydantic's `AnyUrl` (`uri.path`):
`v1_pages_server.py <sdk>`, `sdk` `official` (the `mcp` 1.x package) or `ferrymcp` (the
same code on ferrymcp's modules). test_v1_answers.py serves it over stdio to the official
client.
"""

from __future__ import annotations

import sys

import anyio
from pydantic import AnyUrl

if sys.argv[1] == "official":
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.server.lowlevel.helper_types import ReadResourceContents
    from mcp.server.stdio import stdio_server
else:
    from ferrymcp import types  # type: ignore[no-redef]
    from ferrymcp.server.lowlevel import Server  # type: ignore[assignment]
    from ferrymcp.server.lowlevel.helper_types import ReadResourceContents  # type: ignore[assignment]
    from ferrymcp.server.stdio import stdio_server  # type: ignore[assignment]

server = Server("v1-pages")
TOOLS = [types.Tool(name=f"tool_{n}", inputSchema={"type": "object"}) for n in range(5)]
RESOURCES = [types.Resource(uri=f"file:///notes/{n}.txt", name=f"note {n}") for n in range(3)]


@server.list_tools()
async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
    start = int(request.params.cursor) if request.params is not None and request.params.cursor else 0
    end = start + 2
    return types.ListToolsResult(tools=TOOLS[start:end], nextCursor=str(end) if end < len(TOOLS) else None)


@server.list_resources()
async def list_resources(request: types.ListResourcesRequest, /) -> types.ListResourcesResult:
    cursor = request.params.cursor if request.params is not None else None
    start = int(cursor) if cursor else 0
    return types.ListResourcesResult(
        resources=RESOURCES[start : start + 2], nextCursor=None if start + 2 >= len(RESOURCES) else str(start + 2)
    )


@server.list_prompts()
async def list_prompts() -> list[types.Prompt]:
    return [types.Prompt(name="greet")]


@server.read_resource()
async def read_resource(uri: AnyUrl) -> list[ReadResourceContents]:
    return [ReadResourceContents(content=f"{type(uri).__name__} {uri.scheme} {uri.path}", mime_type="text/plain")]


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
