"""The benchmark's echo server on ferrymcp: the official SDK's code with its imports changed (`mcp` -> `ferrymcp`)."""

from typing import Annotated

from ferrymcp.server.mcpserver import MCPServer
from ferrymcp.types import CallToolResult, TextContent
from serve import Level, Owner, Report, report_result, run

mcp = MCPServer("echo")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@mcp.tool()
def report(
    ref: str,
    title: str,
    count: int,
    ratio: float,
    enabled: bool,
    level: Level,
    tags: list[str],
    owner: Owner,
    note: str,
    priority: int,
) -> Annotated[CallToolResult, Report]:
    """Summarise an order: a structured result and a 64 KiB text report."""
    summary, text = report_result(ref, title, count, ratio, enabled, level, tags, owner, note, priority)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=summary)


if __name__ == "__main__":
    run(mcp)
