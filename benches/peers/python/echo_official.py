"""The benchmark's echo server on the official Python SDK (PyPI `mcp`, v2, `MCPServer`)."""

from mcp.server.mcpserver import MCPServer
from serve import run

mcp = MCPServer("echo")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if __name__ == "__main__":
    run(mcp)
