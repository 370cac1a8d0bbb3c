"""The v1 path: `from ferrymcp.server.fastmcp import FastMCP, Context, Image`.

`FastMCP` is `MCPServer` with the 1.x constructor: its positional parameters are 1.x's
(`FastMCP(name, instructions, website_url, icons, auth_server_provider, token_verifier,
event_store, retry_interval)`), so `FastMCP("demo", "Use me for ...")` sets the
instructions as it does there (2.x's second positional is `title`). Every keyword is
`MCPServer`'s.
"""

from __future__ import annotations

from typing import Any

from ferrymcp._media import Audio, Image
from ferrymcp.context import Context
from ferrymcp.server.mcpserver.server import LifespanResultT, MCPServer
from ferrymcp.types import Icon


class FastMCP(MCPServer[LifespanResultT]):
    """`MCPServer` with the 1.x positional signature (see the module doc)."""

    def __init__(
        self,
        name: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Icon] | None = None,
        auth_server_provider: Any = None,
        token_verifier: Any = None,
        event_store: Any = None,
        retry_interval: int | None = None,
        **settings: Any,
    ) -> None:
        super().__init__(
            name,
            instructions=instructions,
            website_url=website_url,
            icons=icons,
            auth_server_provider=auth_server_provider,
            token_verifier=token_verifier,
            event_store=event_store,
            retry_interval=retry_interval,
            **settings,
        )


__all__ = ["Audio", "Context", "FastMCP", "Image"]
