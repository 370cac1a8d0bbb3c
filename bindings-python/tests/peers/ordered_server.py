"""A server whose objects have their keys out of alphabetical order, the same source on
ferrymcp (`python ordered_server.py ferrymcp`) or on the official SDK (`... official`),
over stdio, for test_key_order.py.

`ordered` takes `zeta, alpha, mid` (and an `extra` dict whose keys it returns in the order
it got them) and returns them as structured content, a TypedDict with a nested one;
`ordered_form` asks for a form whose fields are `zeta, alpha, mid`. Every peer must see
these keys in the order written here, as the official SDKs keep it.
"""

import sys
from typing import Any

from pydantic import BaseModel
from typing_extensions import TypedDict

if sys.argv[1] == "official":
    from mcp.server.mcpserver import Context, MCPServer
else:
    from ferrymcp import Context, MCPServer


class Nested(TypedDict):
    y: int
    b: int


class Ordered(TypedDict):
    zeta: str
    alpha: int
    mid: bool
    nested: Nested
    extra: list[str]


class Form(BaseModel):
    zeta: str
    alpha: str
    mid: str


mcp = MCPServer(f"ordered-{sys.argv[1]}")


@mcp.tool()
def ordered(zeta: str, alpha: int, mid: bool, extra: dict[str, Any]) -> Ordered:
    """Echoes its arguments, keys in declaration order; `extra`'s keys as they came."""
    return {"zeta": zeta, "alpha": alpha, "mid": mid, "nested": {"y": 1, "b": 2}, "extra": list(extra)}


@mcp.tool()
async def ordered_form(ctx: Context) -> str:
    """Asks for the form; answers with the action."""
    answer = await ctx.elicit("Fill in", Form)
    return answer.action


if __name__ == "__main__":
    mcp.run()
