"""The v1 path: `from ferrymcp.server.fastmcp import FastMCP, Context, Image`.

`FastMCP` is `MCPServer` with the 1.x constructor: its positional parameters are 1.x's
(`FastMCP(name, instructions, website_url, icons, auth_server_provider, token_verifier,
event_store, retry_interval)`), so `FastMCP("demo", "Use me for ...")` sets the
instructions as it does there (2.x's second positional is `title`), an unnamed server is
named `FastMCP`, its answers are 1.x's where 2.x's differ (core's, in the official Python
dialect: `capabilities.experimental: {}` always declared, a tool's `McpError` a tool
error, a failed legacy resource read code 0 with its cause), and it takes 1.x's
settings of the HTTP transport (`host=`, `port=`, `streamable_http_path=`,
`json_response=`, `stateless_http=`, `max_request_body_size=`, `transport_security=`; the
HTTP+SSE paths refused unless left at their default), which `run("streamable-http")` and
`streamable_http_app()` fall back to. 2.x's `MCPServer` takes none of them (a `TypeError`,
as there). Every other keyword is `MCPServer`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrymcp._media import Audio, Image
from ferrymcp.context import Context
from ferrymcp.server.mcpserver.server import LifespanResultT, MCPServer
from ferrymcp.types import Icon

if TYPE_CHECKING:
    from ferrymcp.server.transport_security import TransportSecuritySettings


class FastMCP(MCPServer[LifespanResultT]):
    """`MCPServer` with the 1.x constructor (see the module doc)."""

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
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        mount_path: str = "/",
        sse_path: str = "/sse",
        message_path: str = "/messages/",
        streamable_http_path: str = "/mcp",
        json_response: bool = False,
        stateless_http: bool = False,
        max_request_body_size: int | None = None,
        transport_security: TransportSecuritySettings | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            # 1.x names an unnamed server `FastMCP` (2.x's `MCPServer`: `mcp-server`).
            name or "FastMCP",
            instructions=instructions,
            website_url=website_url,
            icons=icons,
            auth_server_provider=auth_server_provider,
            token_verifier=token_verifier,
            **options,
        )
        # The official 1.x answers where 2.x's differ, which core keeps (its
        # `ServerOptions::python_v1`): `capabilities.experimental: {}` always sent, an
        # `McpError` a tool raised (the client's `Elicitation not supported`) a tool
        # error, a failed legacy resource read code 0 with its cause.
        self._options["dialect"] = "python-sdk-1"
        self._use_http_settings(
            "FastMCP()",
            host=host,
            port=port,
            mount_path=mount_path,
            sse_path=sse_path,
            message_path=message_path,
            streamable_http_path=streamable_http_path,
            json_response=json_response,
            stateless_http=stateless_http,
            max_request_body_size=max_request_body_size,
            transport_security=transport_security,
            event_store=event_store,
            retry_interval=retry_interval,
        )


__all__ = ["Audio", "Context", "FastMCP", "Image"]
