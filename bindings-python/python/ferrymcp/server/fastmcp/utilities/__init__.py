"""The v1 path of the media helpers (`mcp.server.fastmcp.utilities`)."""
