"""`mcp.server.mcpserver.utilities` at ferrymcp's path."""
