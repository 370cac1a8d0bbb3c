"""A server written against the official SDK's API whose extension answers one tool with a
result shape of its own (`resultType: "ticket"`), for the client result-claim tests
(test_result_claims.py): `claims_server.py <sdk>`, `sdk` `official` (the `mcp` package) or
`ferrymcp` (the same code on ferrymcp's modules), over stdio.

`reserve` is answered by the extension with a ticket, once the client declared the
extension (else the official `-32021`); `collect` exchanges a ticket for the seat; `plain`
answers only a client that declared `com.example/plain` (else `-32021`).
"""

from __future__ import annotations

import sys
from typing import Any

if sys.argv[1] == "official":
    import mcp.types as types
    from mcp.server.extension import Extension
    from mcp.server.mcpserver import MCPServer, require_client_extension
else:
    import ferrymcp.types as types  # type: ignore[no-redef]
    from ferrymcp.server.extension import Extension  # type: ignore[assignment]
    from ferrymcp.server.mcpserver import MCPServer, require_client_extension  # type: ignore[assignment]

TICKETS = "com.example/tickets"
PLAIN = "com.example/plain"


class TicketDesk(Extension):
    identifier = TICKETS

    async def intercept_tool_call(self, params: Any, ctx: Any, call_next: Any) -> Any:
        if params.name == "plain":
            require_client_extension(ctx, PLAIN)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text="declared")], structured_content={"result": "declared"}
            )
        if params.name != "reserve":
            return await call_next(ctx)
        require_client_extension(ctx, TICKETS)
        return {"resultType": "ticket", "ticketCode": f"T-{params.arguments['seat']}"}


mcp = MCPServer("tickets", extensions=[TicketDesk()])


@mcp.tool()
def reserve(seat: str) -> str:
    """Reserve a seat (the extension answers before this runs)."""
    raise NotImplementedError


@mcp.tool()
def collect(code: str) -> str:
    """Exchange a ticket code for the seat."""
    return f"seat for {code}"


@mcp.tool()
def plain() -> str:
    """Answered by the extension before this runs."""
    raise NotImplementedError


mcp.run()
