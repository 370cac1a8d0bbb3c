"""One server written against the official SDK's `MCPServer` API with resolver tools
(`Resolve` parameters), for the answers core gives in the official Python SDK's dialect:
`resolver_server.py <where> <sdk>`, `sdk` `official` (the `mcp` package) or `ferrymcp` (the
same code on ferrymcp's modules), `where` `stdio`, or a port of 127.0.0.1 to serve
Streamable HTTP on. test_official_refusals.py runs both and compares.
"""

from __future__ import annotations

import sys
from typing import Annotated

from pydantic import BaseModel

if sys.argv[2] == "official":
    from mcp.server.mcpserver import Elicit, ListRoots, MCPServer, Resolve
    from mcp.types import ListRootsResult
else:
    from ferrymcp.server.mcpserver import Elicit, ListRoots, MCPServer, Resolve  # type: ignore[assignment]
    from ferrymcp.types import ListRootsResult  # type: ignore[assignment]

mcp = MCPServer("resolvers")


class Confirmation(BaseModel):
    confirm: bool


async def ask_to_confirm(date: str) -> Elicit[Confirmation]:
    """Resolver: a form elicitation."""
    return Elicit(f"Book a table for {date}?", Confirmation)


def the_roots() -> ListRoots:
    """Resolver: the client's roots."""
    return ListRoots()


@mcp.tool()
async def book_table(date: str, answer: Annotated[Confirmation, Resolve(ask_to_confirm)]) -> str:
    """A tool whose resolver elicits."""
    return f"Booked for {date}." if answer.confirm else "No booking made."


@mcp.tool()
async def count_roots(roots: Annotated[ListRootsResult, Resolve(the_roots)]) -> int:
    """A tool whose resolver lists the client's roots."""
    return len(roots.roots)


if sys.argv[1] == "stdio":
    mcp.run()
else:
    mcp.run("streamable-http", port=int(sys.argv[1]))
