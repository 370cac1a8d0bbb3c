"""The quick-start server, exactly as written for the official MCP Python SDK.

test_quickstart.py runs it with only its import line changed to ferrymcp's.
"""

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Quickstart", version="1.0.0")


@mcp.tool(name="add", description="Add two numbers")
def add(a: int, b: int) -> int:
    return a + b


@mcp.resource("greeting://{name}", name="greeting", description="A personalised greeting")
def get_greeting(name: str) -> str:
    return f"Hello, {name}!"


@mcp.prompt(name="translate", description="Ask for a translation")
def translate(text: str, language: str = "French") -> str:
    return f"Translate this into {language}: {text}"


if __name__ == "__main__":
    mcp.run()
