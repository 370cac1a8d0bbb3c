"""Middleware (`MCPServer(middleware=[...])`, the low-level `Server.middleware`) and an
extension's `intercept_tool_call`, on core's middleware hook: every inbound message passes
through (the engine's own answers and notifications too), a middleware can refuse one
with an error the client receives, the result passes through, and an interceptor rewrites a
tool's result. Both eras, in memory and over stdio to a server process.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import middleware_peer  # noqa: E402

from ferrymcp import Client  # noqa: E402
from ferrymcp.exceptions import McpError  # noqa: E402
from ferrymcp.server import Server  # noqa: E402
from ferrymcp.types import INVALID_REQUEST, ListToolsResult  # noqa: E402

ERAS = ["legacy", "2026-07-28"]


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("where", ["memory", "stdio"])
async def test_middleware_and_an_interceptor(mode: str, where: str) -> None:
    target: Any = middleware_peer.server() if where == "memory" else [sys.executable, middleware_peer.__file__]
    async with Client(target, mode=mode) as client:
        assert (await client.call_tool("echo", {"text": "quiet"})).content[0].text == "QUIET"
        with pytest.raises(McpError) as refused:
            await client.call_tool("forbidden", {})
        assert (refused.value.code, refused.value.message) == (INVALID_REQUEST, "No calls on Sundays.")
        seen = [tuple(pair) for pair in json.loads((await client.call_tool("seen", {})).content[0].text)]
    if mode == "legacy":
        assert seen[:2] == [("initialize", True), ("notifications/initialized", False)]
    else:
        assert seen[0] == ("server/discover", True)
    # The client lists the tools too (to learn their output schemas): the three calls are
    # the last calls the middleware saw.
    calls = [pair for pair in seen if pair[0] != "tools/list"]
    assert calls[-3:] == [("tools/call", True), ("tools/call", True), ("tools/call", True)]


async def test_the_lowlevel_server_list_and_an_unhandled_method() -> None:
    errors: list[int] = []

    async def spy(ctx: Any, call_next: Any) -> Any:
        try:
            return await call_next(ctx)
        except McpError as error:
            errors.append(error.code)
            raise

    async def list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[])

    server = Server("lowlevel", on_list_tools=list_tools)
    server.middleware.append(spy)
    async with Client(server) as client:
        assert (await client.list_tools()).tools == []
        with pytest.raises(McpError):
            await client.read_resource("config://settings")
    assert len(errors) == 1, "the error of call_next reached the middleware"
