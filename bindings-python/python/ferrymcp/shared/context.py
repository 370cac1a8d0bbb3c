"""`RequestContext` at the official path (`mcp.shared.context`)."""

from ferrymcp.context import RequestContext

__all__ = ["RequestContext"]
