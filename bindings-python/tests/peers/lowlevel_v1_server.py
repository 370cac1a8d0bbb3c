"""A low-level server in the official 1.x style (`@server.list_tools()`,
`@server.call_tool()`, `@server.read_resource()`, ..., `stdio_server()` and
`server.run(read, write, server.create_initialization_options())`), written as the v1.x
examples are, with only the imports naming ferrymcp. test_lowlevel.py drives it over stdio
with the official client."""

from __future__ import annotations

import anyio

from ferrymcp.server.lowlevel import NotificationOptions, Server
from ferrymcp.server.lowlevel.helper_types import ReadResourceContents
from ferrymcp.server.stdio import stdio_server
from ferrymcp.types import GetPromptResult, Prompt, PromptMessage, Resource, TextContent, Tool

server: Server = Server("lowlevel-v1")


@server.list_tools()
async def list_tools() -> list[Tool]:
    schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}
    return [
        Tool(name="add", description="Adds.", input_schema=schema),
        Tool(name="fail", input_schema={"type": "object"}),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent] | dict:
    if name == "fail":
        raise ValueError("it failed")
    assert server.request_context.method == "tools/call"
    return {"sum": arguments["a"] + arguments["b"]}


@server.list_resources()
async def list_resources() -> list[Resource]:
    return [Resource(uri="note://hello", name="hello")]


@server.read_resource()
async def read_resource(uri: object) -> list[ReadResourceContents]:
    return [ReadResourceContents(content=f"read {uri}", mime_type="text/plain")]


@server.list_prompts()
async def list_prompts() -> list[Prompt]:
    return [Prompt(name="greet")]


@server.get_prompt()
async def get_prompt(name: str, arguments: dict | None) -> GetPromptResult:
    who = (arguments or {}).get("who", "you")
    return GetPromptResult(messages=[PromptMessage(role="user", content=TextContent(type="text", text=f"Hi {who}"))])


async def main() -> None:
    async with stdio_server() as (read, write):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read, write, options)


anyio.run(main)
