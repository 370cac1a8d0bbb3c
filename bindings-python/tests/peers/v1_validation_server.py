"""A 1.x low-level server whose calls are checked against what it lists:
`v1_validation_server.py <sdk>`, `sdk` `official` (the `mcp` package, 1.x) or `ferrymcp`.
`add` takes two numbers and promises a structured `{"sum": number}`; `lies` promises the
same and returns a string sum; `bare` promises it and returns only content; `raw` returns a
`CallToolResult` as is (not checked, though it breaks the schema); `loose` is called unchecked (`validate_input=False`
in the `strict=0` mode); `unlisted` is not listed at all. The first listing leaves out
`late`, which a call finds by listing again. test_v1_validation.py compares the answers.
"""

from __future__ import annotations

import sys
from typing import Any

sdk = sys.argv[1]
validate = sys.argv[2] == "1" if len(sys.argv) > 2 else True
if sdk == "official":
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
else:
    import ferrymcp.types as types  # type: ignore[no-redef]
    from ferrymcp.server.lowlevel import Server  # type: ignore[no-redef,assignment]
    from ferrymcp.server.stdio import stdio_server  # type: ignore[no-redef,assignment]

server = Server("checked")
NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}
SUM = {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}
listings = 0


@server.list_tools()
async def list_tools() -> list[Any]:
    global listings
    listings += 1
    tools = [types.Tool(name=name, inputSchema=NUMBERS, outputSchema=SUM) for name in ("add", "lies", "bare", "raw")]
    if listings > 1:
        tools.append(types.Tool(name="late", inputSchema=NUMBERS))
    return tools


@server.call_tool(validate_input=validate)
async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
    if name in ("add", "late", "unlisted"):
        return {"sum": arguments.get("a", 0) + arguments.get("b", 0)}
    if name == "lies":
        return {"sum": "three"}
    if name == "bare":
        return [types.TextContent(type="text", text="no structure")]
    if name == "raw":
        # Not checked: 1.x passes a CallToolResult on as is (an error result, which the
        # client does not check either).
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="as is")], structuredContent={"sum": "raw"}, isError=True
        )
    raise ValueError(f"no tool {name}")


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(main)
