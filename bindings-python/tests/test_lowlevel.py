"""The official low-level `Server(on_*=...)` API on ferrymcp: one server written against it
(peers/lowlevel_server.py), served over stdio by the official SDK and by ferrymcp to the
official client in both eras, the answers compared: the application's tools, a paginated
resource list whose cursor the engine passes through, a prompt, and the capabilities
derived from which handlers are set (the engine's: `logging` beside them).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "lowlevel_server.py"


async def answers(sdk: str, mode: str) -> dict[str, Any]:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    seen: dict[str, Any] = {}
    async with mcp.Client(params, mode=mode) as c:
        caps = c.server_capabilities.model_dump(exclude_none=True)
        caps.pop("logging", None)
        seen["capabilities"] = caps
        seen["tools"] = [t.name for t in (await c.list_tools()).tools]
        seen["call"] = (await c.call_tool("search_books", {"query": "Dune"})).model_dump(exclude_none=True)
        pages, cursor = [], None
        while True:
            page = await c.list_resources(cursor=cursor)
            pages.append([r.uri for r in page.resources])
            cursor = page.next_cursor
            if cursor is None:
                break
        seen["pages"] = pages
        seen["prompt"] = (await c.get_prompt("greet", {"who": "Ada"})).messages[0].content.text
    return seen


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_lowlevel_server_answers_as_the_official_one(mode: str) -> None:
    ours, theirs = await answers("ferrymcp", mode), await answers("official", mode)
    assert ours == theirs
    assert ours["pages"] == [["books://0", "books://1"], ["books://2", "books://3"], ["books://4"]]
    assert ours["call"]["content"][0]["text"] == "tools/call: found 'Dune'"


def test_handlers_ferrymcp_does_not_take_are_refused() -> None:
    from ferrymcp.server import Server

    async def listen(ctx: Any, params: Any) -> Any: ...

    with pytest.raises(NotImplementedError, match="on_subscriptions_listen"):
        Server("x", on_subscriptions_listen=listen)
    with pytest.raises(TypeError, match="on_list_toolz"):
        Server("x", on_list_toolz=listen)
