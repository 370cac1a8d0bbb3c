"""A server written against 1.x module paths that ferrymcp gained with scripts/surface-diff.py
(`mcp.server.fastmcp.server`, `mcp.shared.progress`, `mcp.server.lowlevel.server.request_ctx`,
`mcp.types.AnyUrl`), imports naming ferrymcp. test_surface_additions.py drives it over
stdio with the official client. argv[1]: "fastmcp" or "lowlevel"."""

from __future__ import annotations

import sys

import anyio

from ferrymcp.server.fastmcp.server import Context, FastMCP
from ferrymcp.server.lowlevel import Server
from ferrymcp.server.lowlevel.server import request_ctx
from ferrymcp.server.stdio import stdio_server
from ferrymcp.shared.progress import progress
from ferrymcp.types import AnyUrl, TextContent, Tool

mcp = FastMCP("surface-v1", "Instructions, 1.x's second positional.")


@mcp.tool()
async def count(steps: int, ctx: Context) -> str:
    with progress(ctx.request_context, total=steps * 10) as p:
        for _ in range(steps):
            await p.progress(10, message="step")
    return f"counted {p.current}"


@mcp.resource("note://{name}")
def note(name: str) -> str:
    return f"note {name}"


low: Server = Server("surface-v1-lowlevel")


@low.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="whoami", input_schema={"type": "object"})]


@low.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    ctx = request_ctx.get()
    return [TextContent(type="text", text=f"{ctx.method} {ctx.request_id} {str(AnyUrl('note://x'))}")]


async def serve_low() -> None:
    async with stdio_server() as (read, write):
        await low.run(read, write, low.create_initialization_options())


if sys.argv[1] == "fastmcp":
    mcp.run()
else:
    anyio.run(serve_low)
