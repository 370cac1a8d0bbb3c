"""A ferrymcp server (stdio) whose tools take typed and constrained arguments, for
test_argument_wording.py. `TOOLS` are plain functions, registered the same way on the
official `MCPServer` by the test."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field


def get_author(title: str) -> str:
    """The author of a book."""
    return f"author of {title}"


def search_books(query: str, limit: Annotated[int, Field(ge=1, le=50)] = 10) -> list[str]:
    """Search the catalogue."""
    return [query] * min(limit, 2)


TOOLS = [get_author, search_books]

if __name__ == "__main__":
    from ferrymcp.server import MCPServer

    server = MCPServer("arguments")
    for tool in TOOLS:
        server.add_tool(tool)
    server.run()
