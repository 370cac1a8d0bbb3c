"""`ServerSession` at the official SDK's import path (`mcp.server.session`)."""

from ferrymcp._session import ServerSession

__all__ = ["ServerSession"]
