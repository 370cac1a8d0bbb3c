"""One server written against the official SDK's `mcp.server.mcpserver` package API
(dependency injection, the `exceptions`, `prompts`, `resources` and `tools` submodules,
`add_prompt`/`add_resource`):
`surface_server.py <sdk>`, `sdk` `official` (the `mcp` package) or `ferrymcp` (the same
code on ferrymcp's modules). test_mcpserver_surface.py runs both over stdio and compares
what the official client gets."""

from __future__ import annotations

import sys
from typing import Annotated

from pydantic import BaseModel, Field

if sys.argv[1] == "official":
    from mcp.server.mcpserver import Context, Elicit, ElicitationResult, MCPServer, Resolve
    from mcp.server.mcpserver.exceptions import ResourceNotFoundError
    from mcp.server.mcpserver.prompts import Prompt
    from mcp.server.mcpserver.resources import TextResource
else:
    from ferrymcp.server.mcpserver import (  # type: ignore[assignment]
        Context,
        Elicit,
        ElicitationResult,
        MCPServer,
        Resolve,
    )
    from ferrymcp.server.mcpserver.exceptions import ResourceNotFoundError  # type: ignore[assignment]
    from ferrymcp.server.mcpserver.prompts import Prompt  # type: ignore[assignment]
    from ferrymcp.server.mcpserver.resources import TextResource  # type: ignore[assignment]

mcp = MCPServer("surface", instructions="Ask about books.")

INVENTORY = {"Dune": 7, "Neuromancer": 0}


class Stock(BaseModel):
    title: str
    copies: int


class Backorder(BaseModel):
    confirm: bool = Field(description="Order anyway and wait?")


async def check_stock(title: str) -> Stock:
    return Stock(title=title, copies=INVENTORY.get(title, 0))


def estimate(stock: Annotated[Stock, Resolve(check_stock)]) -> str:
    return "tomorrow" if stock.copies > 0 else "in 2-3 weeks"


async def confirm_backorder(title: str, stock: Annotated[Stock, Resolve(check_stock)]) -> Backorder | Elicit[Backorder]:
    if stock.copies > 0:
        return Backorder(confirm=True)
    return Elicit(f"{title!r} is out of stock. Order anyway?", Backorder)


@mcp.tool()
async def order_book(
    title: str,
    stock: Annotated[Stock, Resolve(check_stock)],
    delivery: Annotated[str, Resolve(estimate)],
    backorder: Annotated[Backorder, Resolve(confirm_backorder)],
) -> str:
    """Order a book."""
    if not backorder.confirm:
        return "No order placed."
    return f"{title}: {stock.copies} in stock, arrives {delivery}."


@mcp.tool()
async def ask_outcome(
    title: str,
    ctx: Context,
    outcome: Annotated[ElicitationResult[Backorder], Resolve(confirm_backorder)],
) -> str:
    """Report the elicitation outcome itself."""
    return f"{title}: {outcome.action}"


@mcp.resource("books://{title}")
def book(title: str) -> str:
    """One book."""
    if title not in INVENTORY:
        raise ResourceNotFoundError(f"No book titled {title!r} in the catalog.")
    return f"{title}: {INVENTORY[title]} copies"


def review(code: str) -> str:
    return f"Review:\n{code}"


mcp.add_prompt(Prompt.from_function(review, name="review", description="Review code."))
mcp.add_resource(TextResource(uri="books://about", name="about", text="A small bookshop.", mime_type="text/plain"))

if __name__ == "__main__":
    mcp.run()
