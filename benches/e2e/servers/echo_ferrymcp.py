"""The benchmark's echo server on ferrymcp: the official SDK's code with one import changed."""

from ferrymcp.server.fastmcp import FastMCP

mcp = FastMCP("echo")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if __name__ == "__main__":
    mcp.run()
