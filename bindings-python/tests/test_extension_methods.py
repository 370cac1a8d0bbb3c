"""An extension's own request method (`Extension.methods()`), served by ferrymcp and by the
official SDK from one server file (peers/extension_method_server.py) over stdio, and asked
by the official client in both eras: the answers must be the same. The method is pinned
to 2026-07-28 (`protocol_versions`: on a legacy connection it is "Method not found"), and
its params are a `RequestParams` subclass with pydantic `Field(...)` defaults and
constraints (a refused value is the official "Invalid request parameters").

Needs the native module, `mcp` and pydantic.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
pytest.importorskip("pydantic")

PEER = Path(__file__).resolve().parent / "peers" / "extension_method_server.py"
CALLS = [{"query": "q"}, {"query": "q", "limit": 3}, {"query": "q", "limit": 99}, {"limit": 1}]


class _Search:
    """The extension's request as the official session sends one."""

    method = "com.example/search"
    name_param = None

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return {"method": self.method, "params": self.params}


async def answers(sdk: str, mode: str) -> list[Any]:
    class SearchResult(mcp.types.Result):
        items: list[str]

    seen: list[Any] = []
    async with mcp.Client(mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk]), mode=mode) as c:
        for params in CALLS:
            try:
                result = await c.session.send_request(_Search(params), SearchResult)
                seen.append(result.items)
            except mcp.MCPError as error:
                seen.append((error.error.code, error.error.message, error.error.data))
    return seen


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_an_extension_method_answers_as_the_official_one(mode: str) -> None:
    ours, theirs = await answers("ferrymcp", mode), await answers("official", mode)
    assert ours == theirs
    refused = (-32602, "Invalid request parameters", "")
    if mode == "legacy":
        missing = (-32601, "Method not found", "com.example/search")
        assert ours == [missing, missing, refused, refused]
    else:
        assert ours == [["q-0", "q-1"], ["q-0", "q-1", "q-2"], refused, refused]


def test_what_the_official_classes_refuse_is_refused() -> None:
    from pydantic import Field

    import ferrymcp.types as types
    from ferrymcp.server.extension import MethodBinding

    async def handler(ctx: Any, params: Any) -> None: ...

    with pytest.raises(ValueError, match="empty protocol_versions set"):
        MethodBinding("com.example/x", types.RequestParams, handler, protocol_versions=frozenset())
    with pytest.raises(TypeError, match=r"Aliased\.n: Field\(alias=...\) is not supported"):

        class Aliased(types.RequestParams):
            n: int = Field(alias="count")
