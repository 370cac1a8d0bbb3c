"""One server whose handlers fail, written against the official high-level API:
`v1_answers_server.py <sdk> <api>`, `sdk` `official` (the `mcp` package) or `ferrymcp`,
`api` `fastmcp` (1.x's `FastMCP`) or `mcpserver` (2.x's `MCPServer`). A tool whose
elicitation the client does not support, a static resource and a template resource that
raise, a prompt that raises, a tool that crashes and one that raises `ToolError` (2.x keeps a
crash's text on the server), and a tool returning a TypedDict with a docstring (its output
schema: 1.x leaves the docstring out, 2.x gives it). test_v1_answers.py compares the answers: 2.x's with the
official 2.x server's, 1.x's with 1.x's.
"""

from __future__ import annotations

import sys
from typing import TypedDict

from pydantic import BaseModel

sdk, api = sys.argv[1], sys.argv[2]
if sdk == "official" and api == "fastmcp":
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as Server
    from mcp.server.fastmcp.exceptions import ToolError
elif sdk == "official":
    from mcp.server.mcpserver import Context  # type: ignore[no-redef]
    from mcp.server.mcpserver import MCPServer as Server  # type: ignore[no-redef]
    from mcp.server.mcpserver.exceptions import ToolError  # type: ignore[no-redef]
elif api == "fastmcp":
    from ferrymcp.server.fastmcp import Context  # type: ignore[no-redef]
    from ferrymcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]
    from ferrymcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef,assignment]
else:
    from ferrymcp.server.mcpserver import Context  # type: ignore[no-redef]
    from ferrymcp.server.mcpserver import MCPServer as Server  # type: ignore[no-redef]
    from ferrymcp.server.mcpserver.exceptions import ToolError  # type: ignore[no-redef,assignment]

server = Server("answers")


class Confirm(BaseModel):
    ok: bool


@server.tool()
async def pay(amount: float, ctx: Context) -> str:
    answer = await ctx.elicit(f"Pay {amount}?", Confirm)
    return answer.action


class Summary(TypedDict):
    """A weather summary."""

    city: str
    temp_c: float


@server.tool()
def summary(city: str) -> Summary:
    return Summary(city=city, temp_c=22.5)


@server.tool()
def crash() -> str:
    raise KeyError("internal detail")


@server.tool()
def refuse() -> str:
    raise ToolError("no such account")


@server.resource("config://broken")
def broken() -> str:
    raise OSError("disk gone")


@server.resource("items://{name}")
def item(name: str) -> str:
    raise ValueError(f"no item {name}")


@server.prompt()
def review(path: str) -> str:
    raise FileNotFoundError(f"no file {path}")


server.run()
