"""One server written against the official SDK's `MCPServer` API, for the answers where
the official SDKs differ and core answers in the official Python SDK's dialect:
`dialect_server.py <sdk> [set-level]`, `sdk` `official` (the `mcp` package) or `ferrymcp`
(the same code on ferrymcp's modules); with `set-level` it registers a `logging/setLevel`
handler as the official everything server does. test_dialect.py runs both and compares.
"""

from __future__ import annotations

import sys
from typing import Any

if sys.argv[1] == "official":
    from mcp.server import ServerRequestContext
    from mcp.server.mcpserver import MCPServer
    from mcp.types import Completion, EmptyResult, SetLevelRequestParams
else:
    from ferrymcp.server import ServerRequestContext  # type: ignore[assignment]
    from ferrymcp.server.mcpserver import MCPServer  # type: ignore[assignment]
    from ferrymcp.types import Completion, EmptyResult, SetLevelRequestParams  # type: ignore[assignment]

mcp = MCPServer("dialect")


@mcp.resource("data://broken")
def broken() -> str:
    """A resource whose read fails."""
    raise OSError("disk on fire")


@mcp.prompt()
def greet(who: str) -> str:
    """A prompt with a required argument."""
    return f"Hello {who}"


@mcp.completion()
async def complete(ref: Any, argument: Any, context: Any) -> Completion:
    return Completion(values=["python"])


async def set_level(ctx: ServerRequestContext, params: SetLevelRequestParams) -> EmptyResult:
    return EmptyResult()


if sys.argv[2:] == ["set-level"]:
    mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)

mcp.run()
