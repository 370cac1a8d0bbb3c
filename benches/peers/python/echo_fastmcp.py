"""The benchmark's echo server on FastMCP (PyPI `fastmcp`)."""

from fastmcp import FastMCP
from serve import run

mcp = FastMCP("echo")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if __name__ == "__main__":
    run(mcp)
