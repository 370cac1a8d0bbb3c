"""The benchmark's echo server on ferrymcp: the official SDK's code with one import changed."""

from ferrymcp.server.mcpserver import MCPServer
from serve import run

mcp = MCPServer("echo")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if __name__ == "__main__":
    run(mcp)
