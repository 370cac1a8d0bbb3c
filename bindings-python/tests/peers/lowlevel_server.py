"""One low-level server written against the official 2.x `Server(on_*=...)` API:
`lowlevel_server.py <sdk>`, `sdk` `official` (the `mcp` package) or `ferrymcp` (the same
code on ferrymcp's modules). test_lowlevel.py serves both over stdio to the official
client and compares the answers: tools answered by the application, a paginated resource
list (the cursor passed through), a prompt, and the capabilities derived from the handlers.
"""

from __future__ import annotations

import sys

if sys.argv[1] == "official":
    from mcp.server import Server, ServerRequestContext
    from mcp.types import (
        CallToolRequestParams,
        CallToolResult,
        EmptyResult,
        GetPromptRequestParams,
        GetPromptResult,
        ListPromptsResult,
        ListResourcesResult,
        ListToolsResult,
        PaginatedRequestParams,
        Prompt,
        PromptMessage,
        RequestParams,
        Resource,
        TextContent,
        Tool,
    )
else:
    from ferrymcp.server import Server, ServerRequestContext  # type: ignore[assignment]
    from ferrymcp.types import (  # type: ignore[assignment]
        CallToolRequestParams,
        CallToolResult,
        EmptyResult,
        GetPromptRequestParams,
        GetPromptResult,
        ListPromptsResult,
        ListResourcesResult,
        ListToolsResult,
        PaginatedRequestParams,
        Prompt,
        PromptMessage,
        RequestParams,
        Resource,
        TextContent,
        Tool,
    )

SEARCH = Tool(
    name="search_books",
    description="Search the catalog.",
    input_schema={"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)
BOOKS = [Resource(uri=f"books://{n}", name=f"book-{n}") for n in range(5)]


async def list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=[SEARCH])


async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
    query = (params.arguments or {})["query"]
    return CallToolResult(content=[TextContent(type="text", text=f"{ctx.method}: found {query!r}")])


async def list_resources(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListResourcesResult:
    start = int(params.cursor) if params is not None and params.cursor else 0
    page = BOOKS[start : start + 2]
    following = str(start + 2) if start + 2 < len(BOOKS) else None
    return ListResourcesResult(resources=page, next_cursor=following)


async def list_prompts(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListPromptsResult:
    return ListPromptsResult(prompts=[Prompt(name="greet", description="Say hello.")])


async def get_prompt(ctx: ServerRequestContext, params: GetPromptRequestParams) -> GetPromptResult:
    who = (params.arguments or {}).get("who", "you")
    return GetPromptResult(messages=[PromptMessage(role="user", content=TextContent(type="text", text=f"Hi {who}"))])


async def reindex(ctx: ServerRequestContext, params: RequestParams) -> EmptyResult:
    return EmptyResult()


server = Server(
    "lowlevel",
    version="1.0.0",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_list_prompts=list_prompts,
    on_get_prompt=get_prompt,
)
# A method of the application's own, beside MCP's.
server.add_request_handler("bookshop/reindex", RequestParams, reindex)

if __name__ == "__main__":
    import anyio

    if sys.argv[1] == "official":
        from mcp.server.stdio import stdio_server
    else:
        from ferrymcp.server.stdio import stdio_server  # type: ignore[assignment]

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
