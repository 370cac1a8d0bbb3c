"""A server built with the official SDK (PyPI `mcp` 2.3.0), for ferrymcp's client to
talk to over stdio (test_stdio.py), or over Streamable HTTP on a port the OS chooses with
the argument `http` (test_http_client.py; uvicorn names the port on stderr)."""

import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent

mcp = MCPServer("official-peer", version="1.0.0")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


@mcp.tool()
async def ask_model(ctx: Context) -> str:
    message = SamplingMessage(role="user", content=TextContent(type="text", text="Capital of France?"))
    result = await ctx.session.create_message([message], max_tokens=10)
    return result.content.text if isinstance(result.content, TextContent) else ""


@mcp.tool()
async def change_tools(ctx: Context) -> str:
    """Tells `subscriptions/listen` subscribers the tool list changed."""
    await ctx.notify_tools_changed()
    return "changed"


@mcp.resource("echo://{text}")
def echo(text: str) -> str:
    return text


@mcp.prompt()
def review(code: str) -> str:
    return f"Please review this code:\n\n{code}"


if __name__ == "__main__":
    if sys.argv[1:] == ["http"]:
        mcp.run("streamable-http", host="127.0.0.1", port=0)
    else:
        mcp.run()
