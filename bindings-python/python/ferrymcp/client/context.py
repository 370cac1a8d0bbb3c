"""`ClientRequestContext` at the official 2.x path (`mcp.client.context`): what a sampling,
elicitation or roots callback gets with the server's request."""

from ferrymcp.client import ClientRequestContext

__all__ = ["ClientRequestContext"]
