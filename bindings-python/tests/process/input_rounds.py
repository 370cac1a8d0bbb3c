"""A Python server over stdio with one tool whose handler awaits two client inputs
together (`asyncio.gather`), then a third, naming none of them: which inputs share a
2026-07-28 round, and their keys, are the engine's to decide. The Node test
`bindings-node/test/input-rounds.test.mjs` runs it beside its Node twin
(`bindings-node/test/fixtures/input-rounds.mjs`) and compares what the two answer."""

import asyncio
from typing import Any

from ferrymcp import Context, MCPServer

mcp = MCPServer("input-rounds")


def ask(message: str) -> dict[str, Any]:
    return {"message": message, "requestedSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}


@mcp.tool(description="Asks for two inputs together, then a third")
async def three_inputs(ctx: Context) -> str:
    first, second = await asyncio.gather(
        ctx.request_input("elicitation/create", ask("first")),
        ctx.request_input("elicitation/create", ask("second")),
    )
    third = await ctx.request_input("elicitation/create", ask("third"))
    return " ".join(answer["content"]["v"] for answer in (first, second, third))


if __name__ == "__main__":
    mcp.run()
