"""The 1.x client idiom on ferrymcp (`stdio_client` / `streamablehttp_client` /
`streamable_http_client` yielding a pair, `ClientSession(read, write, ...)` over it),
against real servers: the official SDK's server (peers/official_server.py) over stdio and
over Streamable HTTP under uvicorn, and ferrymcp's own (peers/surface_server.py) over stdio.
The callbacks are the server's to trigger (the official server samples), and what the
idiom does not support is refused with an error naming it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")

from serving import HERE, Served

from ferrymcp.client.session import ClientSession
from ferrymcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client
from ferrymcp.client.streamable_http import streamable_http_client, streamablehttp_client
from ferrymcp.types import CreateMessageResult, TextContent

OFFICIAL = HERE / "peers" / "official_server.py"
SURFACE = HERE / "peers" / "surface_server.py"


async def sampling(context: Any, params: Any) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(text="Paris"), model="m", stop_reason="endTurn")


async def exercise(session: ClientSession) -> None:
    init = await session.initialize()
    assert init.server_info.name == "official-peer" and init.protocol_version < "2026"
    assert [t.name for t in (await session.list_tools()).tools][:2] == ["add", "ask_model"]
    assert (await session.call_tool("add", {"a": 2, "b": 40})).content[0].text == "42"
    # The server asks the client's model: the session's sampling callback answers.
    assert (await session.call_tool("ask_model", {})).content[0].text == "Paris"
    assert (await session.read_resource("echo://hi")).contents[0].text == "hi"
    prompt = await session.get_prompt("review", {"code": "x = 1"})
    assert prompt.messages[0].content.text.endswith("x = 1")
    assert session.get_server_capabilities() is not None


async def test_stdio_idiom_against_the_official_server() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(OFFICIAL)])
    async with stdio_client(params) as (read, write), ClientSession(read, write, sampling_callback=sampling) as s:
        await exercise(s)


@pytest.fixture(scope="module")
def official_http() -> Iterator[Served]:
    served = Served([sys.executable, str(OFFICIAL), "http"], r"Uvicorn running on (http://\S+)")
    yield served
    served.stop()


async def test_streamable_http_idioms_against_the_official_server(official_http: Served) -> None:
    url = official_http.url.rstrip("/") + "/mcp"
    async with (
        streamablehttp_client(url) as (read, write, _),
        ClientSession(read, write, sampling_callback=sampling) as session,
    ):
        await exercise(session)
    async with (
        streamable_http_client(url) as (read, write, _),
        ClientSession(read, write, sampling_callback=sampling) as session,
    ):
        await exercise(session)


async def test_stdio_idiom_against_a_ferrymcp_server() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(SURFACE), "ferrymcp"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        assert (await session.initialize()).instructions == "Ask about books."
        page = await session.list_tools(params=None)
        assert "order_book" in [t.name for t in page.tools]
        result = await session.call_tool("order_book", {"title": "Dune"})
        assert result.content[0].text == "Dune: 7 in stock, arrives tomorrow."


async def test_what_the_idiom_does_not_take_is_refused() -> None:
    with pytest.raises(TypeError, match="two streams of SessionMessage"):
        ClientSession(object(), object())
    with pytest.raises(TypeError, match="auth=object is not supported"):
        async with streamablehttp_client("http://127.0.0.1:1/mcp", auth=object()):
            pass
    with pytest.raises(ValueError, match="encoding"):
        async with stdio_client(StdioServerParameters(command="x", encoding="latin-1")):
            pass
    assert set(get_default_environment()) <= {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}


async def test_a_session_group_gathers_two_servers_and_routes_calls() -> None:
    from ferrymcp import ClientSessionGroup
    from ferrymcp.exceptions import McpError

    official = StdioServerParameters(command=sys.executable, args=[str(OFFICIAL)])
    ours = StdioServerParameters(command=sys.executable, args=[str(SURFACE), "ferrymcp"])
    async with ClientSessionGroup(component_name_hook=lambda name, info: f"{info.name}.{name}") as group:
        first = await group.connect_to_server(official)
        await group.connect_to_server(ours)
        assert {"official-peer.add", "surface.order_book"} <= set(group.tools)
        assert {"official-peer.review", "surface.review"} <= set(group.prompts)
        added = await group.call_tool("official-peer.add", {"a": 1, "b": 2})
        ordered = await group.call_tool("surface.order_book", {"title": "Dune"})
        assert (added.content[0].text, ordered.content[0].text) == ("3", "Dune: 7 in stock, arrives tomorrow.")
        await group.disconnect_from_server(first)
        assert "official-peer.add" not in group.tools and "surface.order_book" in group.tools
    # Without a hook, a name two servers share is refused (both offer a "review" prompt).
    async with ClientSessionGroup() as group:
        await group.connect_to_server(official)
        with pytest.raises(McpError, match="already exist in group prompts"):
            await group.connect_to_server(ours)
