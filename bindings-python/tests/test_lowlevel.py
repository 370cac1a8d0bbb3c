"""The official low-level `Server(on_*=...)` API on ferrymcp: one server written against it
(peers/lowlevel_server.py), served over stdio by the official SDK and by ferrymcp to the
official client in both eras, the answers compared: the application's tools, a paginated
resource list whose cursor the engine passes through, a prompt, and the capabilities
derived from which handlers are set, and the errors of a failing handler and of methods no
handler was given for.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "lowlevel_server.py"


class _Reindex:
    """A request of the application's own method, as the official session sends one."""

    method = "bookshop/reindex"
    params = None
    name_param = None

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return {"method": self.method}


async def answers(sdk: str, mode: str) -> dict[str, Any]:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    seen: dict[str, Any] = {}
    async with mcp.Client(params, mode=mode) as c:
        seen["capabilities"] = c.server_capabilities.model_dump(exclude_none=True)
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
        custom = await c.session.send_request(_Reindex(), mcp.types.EmptyResult)
        seen["custom"] = custom.model_dump(exclude_none=True)
        # A handler's own failure (a `KeyError`), and methods no handler was given for.
        prompt = mcp.types.PromptReference(type="ref/prompt", name="greet")
        for failing in (
            c.call_tool("search_books", {}),
            c.read_resource("config://settings"),
            c.complete(ref=prompt, argument={"name": "who", "value": "A"}),
        ):
            with pytest.raises(mcp.MCPError) as failed:
                await failing
            seen.setdefault("errors", []).append(failed.value.error.model_dump())
    return seen


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_lowlevel_server_answers_as_the_official_one(mode: str) -> None:
    ours, theirs = await answers("ferrymcp", mode), await answers("official", mode)
    assert ours == theirs
    assert ours["pages"] == [["books://0", "books://1"], ["books://2", "books://3"], ["books://4"]]
    assert ours["call"]["content"][0]["text"] == "tools/call: found 'Dune'"
    # The official Python SDK's wording (core's `Dialect::PythonSdk`), and no `logging` or
    # `listChanged: true` the official server does not declare.
    # A handler's failure: code 0 and its text on a legacy session, sanitised at 2026-07-28.
    failed = (
        {"code": 0, "message": "'query'"} if mode == "legacy" else {"code": -32603, "message": "Internal server error"}
    )
    assert ours["errors"][0] == {**failed, "data": None}
    assert ours["errors"][1] == {"code": -32601, "message": "Method not found", "data": "resources/read"}
    assert "logging" not in ours["capabilities"]


def test_handlers_ferrymcp_does_not_take_are_refused() -> None:
    from ferrymcp.server import Server

    async def listen(ctx: Any, params: Any) -> Any: ...

    with pytest.raises(NotImplementedError, match="on_subscriptions_listen"):
        Server("x", on_subscriptions_listen=listen)
    with pytest.raises(TypeError, match="on_list_toolz"):
        Server("x", on_list_toolz=listen)


V1_PEER = Path(__file__).resolve().parent / "peers" / "lowlevel_v1_server.py"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_1x_decorator_style(mode: str) -> None:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(V1_PEER)])
    async with mcp.Client(params, mode=mode) as c:
        if mode == "legacy":  # the handshake's capabilities, with NotificationOptions(tools_changed=True)
            tools, prompts = c.server_capabilities.tools, c.server_capabilities.prompts
            assert tools is not None and tools.list_changed is True and prompts is not None
        assert [t.name for t in (await c.list_tools()).tools] == ["add", "fail"]
        added = await c.call_tool("add", {"a": 2, "b": 40})
        # A dict is structured output, also sent as its JSON text.
        assert added.structured_content == {"sum": 42} and '"sum": 42' in added.content[0].text
        failed = await c.call_tool("fail", {})
        assert failed.is_error and failed.content[0].text == "it failed"
        assert (await c.read_resource("note://hello")).contents[0].text == "read note://hello"
        prompt = await c.get_prompt("greet", {"who": "Ada"})
        assert prompt.messages[0].content.text == "Hi Ada"


@pytest.mark.parametrize("sdk", ["ferrymcp", "official"])
def test_the_handler_registry_is_read_as_the_official_one(sdk: str) -> None:
    """`get_request_handler` / `get_notification_handler` give an entry with the params
    model and the handler, for constructor handlers and `add_request_handler` alike (the
    same answers from the official `Server` and ferrymcp's)."""
    if sdk == "official":
        from mcp.server.lowlevel import Server
        from mcp.server.lowlevel.server import HandlerEntry
        from mcp_types import CallToolRequestParams, NotificationParams, RequestParams
    else:
        from ferrymcp.server.lowlevel import Server
        from ferrymcp.server.lowlevel.server import HandlerEntry
        from ferrymcp.types import CallToolRequestParams, NotificationParams, RequestParams

    async def call_tool(ctx: Any, params: Any) -> Any: ...
    async def reindex(ctx: Any, params: Any) -> Any: ...
    async def reindexed(ctx: Any, params: Any) -> None: ...

    server = Server("registry", on_call_tool=call_tool)
    server.add_request_handler("bookshop/reindex", RequestParams, reindex)
    server.add_notification_handler("notifications/bookshop/reindexed", NotificationParams, reindexed)
    entries = {
        method: server.get_request_handler(method) for method in ["tools/call", "bookshop/reindex", "tools/list"]
    }
    assert entries == {
        "tools/call": HandlerEntry(CallToolRequestParams, call_tool),
        "bookshop/reindex": HandlerEntry(RequestParams, reindex),
        "tools/list": None,
    }
    changed = server.get_notification_handler("notifications/bookshop/reindexed")
    assert changed == HandlerEntry(NotificationParams, reindexed)
    assert server.get_notification_handler("notifications/nothing") is None
