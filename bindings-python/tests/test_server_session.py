"""The official `ServerSession` methods a tool reaches through its context
(`send_notification`, `send_elicit_complete`, `send_ping`, `send_request`,
`can_send_request`): one server written against them (peers/session_server.py) is served
over stdio by the official SDK and by ferrymcp to the official client, in both eras, and
what the client receives is compared. On a legacy session the requests reach the client; a
2026-07-28 request has no back-channel and both raise `NoBackChannelError` (-32600).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "session_server.py"


async def seen_by_the_client(sdk: str, mode: str) -> dict[str, Any]:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    logs: list[Any] = []
    messages: list[str] = []

    async def on_log(params: Any) -> None:
        logs.append(params.data)

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            raise message
        messages.append(message.method)

    async def roots(context: Any) -> Any:
        return mcp.types.ListRootsResult(roots=[mcp.types.Root(uri="file:///work", name="work")])

    seen: dict[str, Any] = {}
    async with mcp.Client(
        params, mode=mode, logging_callback=on_log, message_handler=on_message, list_roots_callback=roots
    ) as client:
        for tool in ("notify", "notify_session", "ask"):
            result = await client.call_tool(tool, {})
            seen[tool] = [block.text for block in result.content]
    seen["logs"] = logs
    seen["messages"] = [method for method in messages if method != "notifications/message"]
    return seen


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_session_methods_reach_the_client_as_the_official_ones(mode: str) -> None:
    ours, theirs = await seen_by_the_client("ferrymcp", mode), await seen_by_the_client("official", mode)
    assert ours == theirs
    assert ours["logs"] == ["on the request", "on the session"]
    if mode == "legacy":
        assert ours["messages"] == ["notifications/elicitation/complete"]
        assert ours["ask"] == ["pong; roots=['file:///work'] can_send=True"]
    else:  # 2026-07-28 has no notifications/elicitation/complete: the client drops it
        assert ours["ask"][0].startswith("no back-channel (-32600): Cannot send 'ping'")


@pytest.mark.parametrize("sdk", ["ferrymcp", "official"])
async def test_a_request_read_timeout_fails_the_request_and_cancels_it_at_the_client(sdk: str) -> None:
    """`send_request(request_read_timeout_seconds=...)` is the engine's request timeout: a
    client that never answers gets `notifications/cancelled` (its callback is cancelled)
    and the tool sees `REQUEST_TIMEOUT` (-32001), as with the official SDK's server."""
    import anyio

    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    asked, cancelled = anyio.Event(), anyio.Event()

    async def roots(context: Any) -> Any:
        asked.set()
        try:
            await anyio.sleep_forever()
        finally:
            cancelled.set()

    async with mcp.Client(params, mode="legacy", list_roots_callback=roots) as client:
        result = await client.call_tool("ask_with_timeout", {"seconds": 0.2})
        assert [block.text for block in result.content] == ["error -32001"]
        assert asked.is_set()
        # (A guard against hanging, not a measure: the cancel is sent with the timeout.)
        with anyio.fail_after(30):
            await cancelled.wait()


async def undeclared_roots(sdk: str, mode: str) -> list[str]:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    async with mcp.Client(params, mode=mode) as client:
        return [block.text for block in (await client.call_tool("ask_roots", {})).content]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_send_request_goes_out_whatever_the_client_declared_as_core_decides(mode: str) -> None:
    """Core decides a session request (its `Context::ask` in the official dialect): on a
    legacy session it is sent without looking at the client's capabilities, and the
    client's own refusal comes back; at 2026-07-28 it is refused as `NoBackChannelError`."""
    ours, theirs = await undeclared_roots("ferrymcp", mode), await undeclared_roots("official", mode)
    assert ours == theirs
    if mode == "legacy":
        assert ours == ["MCPError -32600: List roots not supported"]
    else:
        assert ours == [
            "NoBackChannelError -32600: Cannot send 'roots/list': "
            "this transport context has no back-channel for server-initiated requests."
        ]


async def test_ferrymcp_s_client_raises_the_no_back_channel_refusal_as_its_class() -> None:
    """A tool that lets the refusal fail the call: the official client receives -32600 with
    the official message; ferrymcp's client raises it as `NoBackChannelError` (the class the
    official in-process client raises), still an `MCPError`."""
    from ferrymcp import Client, MCPError
    from ferrymcp.client.stdio import StdioServerParameters
    from ferrymcp.shared.exceptions import NoBackChannelError

    message = (
        "Cannot send 'sampling/createMessage': "
        "this transport context has no back-channel for server-initiated requests."
    )
    official = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), "official"])
    async with mcp.Client(official, mode="2026-07-28") as client:
        with pytest.raises(mcp.MCPError) as theirs:
            await client.call_tool("sample_unguarded", {})
    assert (theirs.value.error.code, theirs.value.error.message) == (-32600, message)
    for sdk in ("ferrymcp", "official"):
        params = StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
        async with Client(params, mode="2026-07-28") as ours:
            with pytest.raises(NoBackChannelError) as raised:
                await ours.call_tool("sample_unguarded", {})
        assert isinstance(raised.value, MCPError)
        assert (raised.value.method, raised.value.error.code, str(raised.value)) == (
            "sampling/createMessage",
            -32600,
            message,
        )
