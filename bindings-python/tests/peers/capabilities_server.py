"""One server, written against the official SDK's `MCPServer` API, whose capabilities
depend on what it registers: `capabilities_server.py <sdk> <shape>`, `sdk` `official`
(the `mcp` package) or `ferrymcp` (the same code on ferrymcp's modules), `shape` `empty`,
`tools`, `prompts`, `completion` or `extension`. test_capabilities.py runs both and
compares what they declare."""

from __future__ import annotations

import sys
from typing import Any

if sys.argv[1] == "official":
    from mcp.server.extension import Extension, ToolBinding
    from mcp.server.mcpserver import MCPServer
else:
    from ferrymcp.server.extension import Extension, ToolBinding  # type: ignore[assignment]
    from ferrymcp.server.mcpserver import MCPServer  # type: ignore[assignment]

shape = sys.argv[2]


def ping() -> str:
    """Answers pong."""
    return "pong"


class Ui(Extension):
    identifier = "io.modelcontextprotocol/ui"

    def settings(self) -> dict[str, Any]:
        return {"mimeTypes": ["text/html;profile=mcp-app"]}

    def tools(self) -> list[ToolBinding]:
        return [ToolBinding(ping, meta={"ui": {"resourceUri": "ui://ping"}})]


mcp = MCPServer(f"capabilities-{shape}", extensions=[Ui()] if shape == "extension" else None)

if shape == "tools":
    mcp.add_tool(ping)
if shape == "prompts":

    @mcp.prompt()
    def greet() -> str:
        """A greeting."""
        return "hello"


if shape == "completion":

    @mcp.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> None:
        return None


mcp.run()
