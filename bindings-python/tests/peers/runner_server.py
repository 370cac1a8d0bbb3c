"""A low-level server served by hand over stdio with `ferrymcp.server.runner.serve_connection`
(a `JSONRPCDispatcher` over `stdio_server()`'s pair, `Connection.for_loop`): the lifespan is
entered once by the entry and its state reaches the handler; `init_options` names the
server; the connection's exit stack is closed when the client goes away (the callback
writes the marker file named by the first argument, if any). With `dual` as the second
argument it serves with `serve_dual_era_loop` instead."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

from ferrymcp import types
from ferrymcp.server.connection import Connection
from ferrymcp.server.lowlevel import Server
from ferrymcp.server.models import InitializationOptions
from ferrymcp.server.runner import serve_connection, serve_dual_era_loop
from ferrymcp.server.stdio import stdio_server
from ferrymcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

entered: list[str] = []


@asynccontextmanager
async def lifespan(server: Any) -> AsyncIterator[dict[str, str]]:
    entered.append(server.name)
    yield {"greeting": "hello from the lifespan"}


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="greet", input_schema={"type": "object"})])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    text = f"{ctx.lifespan_context['greeting']} (entered {len(entered)} time(s))"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def main() -> None:
    server = Server("runner-peer", on_list_tools=list_tools, on_call_tool=call_tool, lifespan=lifespan)
    options = InitializationOptions(
        server_name="runner-by-hand", server_version="9.9", capabilities=server.get_capabilities()
    )
    async with server.lifespan(server) as state, stdio_server() as (read, write):
        dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(read, write, inline_methods=frozenset({"initialize"}))
        connection = Connection.for_loop(dispatcher)
        if sys.argv[2:] == ["dual"]:
            await serve_dual_era_loop(server, read, write, lifespan_state=state, init_options=options)
            return
        if len(sys.argv) > 1:
            marker = Path(sys.argv[1])
            connection.exit_stack.callback(marker.write_text, "closed")
        await serve_connection(server, dispatcher, connection=connection, lifespan_state=state, init_options=options)


if __name__ == "__main__":
    anyio.run(main)
