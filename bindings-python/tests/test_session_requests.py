"""`ctx.elicit`, `ctx.session.create_message` and `ctx.list_roots` are the official SDK's
session requests (core's `Dialect::PythonSdk`): on a legacy session they go to the client
whatever it declared, and a client without the callback answers `-32600 Elicitation not
supported` (the official client's default callbacks, which ferrymcp's client answers too);
at 2026-07-28 there is no back-channel and they are refused with the official
`Cannot send 'elicitation/create': ...`, a callback or not. Rounds at 2026-07-28 are
`ctx.request_input`'s (and the resolvers'), which still refuse a client without the
capability up front. Over stdio to a real server process, with ferrymcp's client and the
official one.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from ferrymcp import Client  # noqa: E402
from ferrymcp.exceptions import McpError  # noqa: E402
from ferrymcp.types import ElicitResult  # noqa: E402

SERVER = """
from pydantic import BaseModel
from ferrymcp.server.mcpserver import Context, MCPServer


class Booking(BaseModel):
    confirm: bool


mcp = MCPServer("bookings")


@mcp.tool()
async def book_table(date: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Book {date}?", Booking)
    return f"{answer.action} {date}"


@mcp.tool()
async def roots(ctx: Context) -> str:
    return str(len((await ctx.list_roots()).roots))


@mcp.tool()
async def keyed(ctx: Context) -> str:
    answer = await ctx.request_input("elicitation/create", {"message": "?", "requestedSchema": {"type": "object"}})
    return answer["action"]


mcp.run()
"""

NO_BACK_CHANNEL = (
    "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests."
)


@pytest.fixture
def server(tmp_path: Path) -> list[str]:
    script = tmp_path / "bookings.py"
    script.write_text(SERVER)
    return [sys.executable, str(script)]


async def confirm(context: Any, params: Any) -> ElicitResult:
    return ElicitResult(action="accept", content={"confirm": True})


async def test_a_legacy_session_sends_and_the_client_refuses(server: list[str]) -> None:
    async with Client(server, mode="legacy") as client:
        for tool, message in (("book_table", "Elicitation not supported"), ("roots", "List roots not supported")):
            with pytest.raises(McpError) as refused:
                await client.call_tool(tool, {"date": "Friday"})
            assert (refused.value.error.code, refused.value.error.message) == (-32600, message)
    async with Client(server, mode="legacy", elicitation_callback=confirm) as client:
        done = await client.call_tool("book_table", {"date": "Friday"})
        assert done.content[0].text == "accept Friday"  # type: ignore[union-attr]


async def test_at_2026_there_is_no_back_channel(server: list[str]) -> None:
    for callback in (None, confirm):
        async with Client(server, mode="2026-07-28", elicitation_callback=callback) as client:
            with pytest.raises(McpError) as refused:
                await client.call_tool("book_table", {"date": "Friday"})
            assert (refused.value.error.code, refused.value.error.message) == (-32600, NO_BACK_CHANNEL)
    # An input in rounds is `request_input`'s: it runs with the callback, and without the
    # capability it is refused before anything is asked.
    async with Client(server, mode="2026-07-28", elicitation_callback=confirm) as client:
        assert (await client.call_tool("keyed", {})).content[0].text == "accept"  # type: ignore[union-attr]
    async with Client(server, mode="2026-07-28") as client:
        with pytest.raises(McpError) as missing:
            await client.call_tool("keyed", {})
        assert missing.value.error.code == -32021


async def test_the_official_client_sees_the_same(server: list[str]) -> None:
    mcp = pytest.importorskip("mcp")
    params = mcp.StdioServerParameters(command=server[0], args=server[1:])
    async with mcp.Client(params, mode="legacy") as client:
        with pytest.raises(mcp.MCPError) as refused:
            await client.call_tool("book_table", {"date": "Friday"})
        assert (refused.value.error.code, refused.value.error.message) == (-32600, "Elicitation not supported")
    async with mcp.Client(params, mode="2026-07-28") as client:
        with pytest.raises(mcp.MCPError, match="no back-channel for server-initiated requests"):
            await client.call_tool("book_table", {"date": "Friday"})
