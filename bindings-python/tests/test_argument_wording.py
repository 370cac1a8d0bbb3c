"""Invalid tool arguments, worded as the official `MCPServer` words them (pydantic's
`ValidationError` text), while the engine decides that they are invalid and how the call
answers: an `isError` result in both eras, with the engine's `Invalid arguments for tool
<name>: ` before the words.

The server is a real ferrymcp child over stdio (peers/arguments_server.py) under the
official client (PyPI `mcp`); the reference is the official `MCPServer` with the same
functions.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
pytest.importorskip("pydantic")

from serving import HERE  # noqa: E402

sys.path.insert(0, str(HERE / "peers"))
import arguments_server  # noqa: E402

CALLS = [
    ("get_author", {"title": 42}),
    ("search_books", {"query": "dune", "limit": 999}),
    ("search_books", {"query": 7, "limit": 0}),
]
PREFIX = "Error executing tool {name}: "


async def official_texts() -> list[str]:
    from mcp.server import MCPServer as OfficialMCPServer

    server = OfficialMCPServer("arguments")
    for tool in arguments_server.TOOLS:
        server.add_tool(tool)
    texts = []
    async with mcp.Client(server) as client:
        for name, arguments in CALLS:
            result = await client.call_tool(name, arguments)
            assert result.is_error
            text = result.content[0].text
            assert text.startswith(PREFIX.format(name=name)), text
            texts.append(text.removeprefix(PREFIX.format(name=name)))
    return texts


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
async def test_pydantics_words_for_invalid_arguments(mode: str) -> None:
    expected = await official_texts()
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(HERE / "peers" / "arguments_server.py")])
    async with mcp.Client(params, mode=mode) as client:
        for (name, arguments), words in zip(CALLS, expected, strict=True):
            result = await client.call_tool(name, arguments)
            assert result.is_error, result
            text: Any = result.content[0].text
            assert text == f"Invalid arguments for tool {name}: {words}"
        # Valid arguments still reach the function.
        fine = await client.call_tool("search_books", {"query": "dune", "limit": 1})
        assert not fine.is_error
        assert fine.structured_content == {"result": ["dune"]}
