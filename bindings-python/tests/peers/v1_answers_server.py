"""One server whose handlers fail, written against the official high-level API:
`v1_answers_server.py <sdk> <api>`, `sdk` `official` (the `mcp` package) or `ferrymcp`,
`api` `fastmcp` (1.x's `FastMCP`) or `mcpserver` (2.x's `MCPServer`). A tool whose
elicitation the client does not support, a static resource and a template resource that
raise, and a prompt that raises. test_v1_answers.py compares the answers: 2.x's with the
official 2.x server's, 1.x's with 1.x's.
"""

from __future__ import annotations

import sys

from pydantic import BaseModel

sdk, api = sys.argv[1], sys.argv[2]
if sdk == "official" and api == "fastmcp":
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as Server
elif sdk == "official":
    from mcp.server.mcpserver import Context  # type: ignore[no-redef]
    from mcp.server.mcpserver import MCPServer as Server  # type: ignore[no-redef]
elif api == "fastmcp":
    from ferrymcp.server.fastmcp import Context  # type: ignore[no-redef]
    from ferrymcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]
else:
    from ferrymcp.server.mcpserver import Context  # type: ignore[no-redef]
    from ferrymcp.server.mcpserver import MCPServer as Server  # type: ignore[no-redef]

server = Server("answers")


class Confirm(BaseModel):
    ok: bool


@server.tool()
async def pay(amount: float, ctx: Context) -> str:
    answer = await ctx.elicit(f"Pay {amount}?", Confirm)
    return answer.action


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
