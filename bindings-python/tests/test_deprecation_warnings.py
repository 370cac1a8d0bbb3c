"""The official SDK's `MCPDeprecationWarning`s that code filters on: a server's
`ctx.session.create_message` (sampling, deprecated from 2026-07-28) and a client's
`send_ping` (`ping` is removed from 2026-07-28). They warn and then work on a legacy
session, as there. In memory (the official `Client(server)` idiom) so the server's warning
is raised in this process.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from ferrymcp import Client, MCPDeprecationWarning  # noqa: E402
from ferrymcp.server.mcpserver import Context, MCPServer  # noqa: E402
from ferrymcp.types import CreateMessageResult, SamplingMessage, TextContent  # noqa: E402


def server() -> MCPServer[Any]:
    mcp = MCPServer("deprecated")

    @mcp.tool()
    async def ask_model(prompt: str, ctx: Context) -> str:
        result = await ctx.session.create_message(
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=8
        )
        assert isinstance(result.content, TextContent)
        return result.content.text

    return mcp


async def canned(context: Any, params: Any) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text="four"), model="m")


async def test_sampling_warns_and_still_works_on_a_legacy_session() -> None:
    async with Client(server(), mode="legacy", sampling_callback=canned) as client:
        with pytest.warns(MCPDeprecationWarning, match=r"^The sampling capability is deprecated as of 2026-07-28"):
            result = await client.call_tool("ask_model", {"prompt": "2 + 2?"})
    assert not result.is_error and result.content[0].text == "four"  # type: ignore[union-attr]


async def test_send_ping_warns_and_still_works_on_a_legacy_session() -> None:
    async with Client(server(), mode="legacy") as client:
        with pytest.warns(MCPDeprecationWarning, match=r"^ping is removed as of 2026-07-28; the method only works"):
            await client.send_ping()
