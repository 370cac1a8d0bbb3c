"""The 1.x logging helpers (`mcp.server.fastmcp.utilities.logging`)."""

from ferrymcp.server.mcpserver.utilities.logging import configure_logging, get_logger

__all__ = ["configure_logging", "get_logger"]
