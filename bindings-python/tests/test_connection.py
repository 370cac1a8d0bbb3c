"""`ferrymcp.server.connection.Connection` (the official `mcp.server.connection`): a
connection's state over an outbound channel of the application's own. Born ready from a
2026-07-28 envelope with no back-channel (requests refused with `NoBackChannelError`,
notifications dropped), or on the handshake path over a channel: typed requests and their
results, best-effort notifications, and connection-wide logging only before 2026-07-28.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from ferrymcp.exceptions import MCPDeprecationWarning, NoBackChannelError  # noqa: E402
from ferrymcp.server.connection import Connection  # noqa: E402
from ferrymcp.types import (  # noqa: E402
    LATEST_PROTOCOL_VERSION,
    ClientCapabilities,
    EmptyResult,
    ListRootsRequest,
    ListRootsResult,
    PingRequest,
    RootsCapability,
    version,  # noqa: E402
)


class Channel:
    """An outbound channel that answers requests from a table and keeps what it sent."""

    def __init__(self, answers: dict[str, dict[str, Any]]) -> None:
        self.answers = answers
        self.sent: list[tuple[str, Any]] = []
        self.closed = False

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        self.sent.append((method, params))
        return self.answers[method]

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        if self.closed:
            raise BrokenPipeError("the client went away")
        self.sent.append((method, params))


async def test_a_connection_from_an_envelope_is_ready_and_has_no_back_channel() -> None:
    info = {"name": "inspector", "version": "1.0"}
    connection = Connection.from_envelope(version.LATEST_MODERN_VERSION, info, {"roots": {}})
    assert connection.initialized.is_set() and connection.initialize_accepted
    assert connection.client_params is not None and connection.client_params.client_info.name == "inspector"
    assert connection.check_capability(ClientCapabilities(roots=RootsCapability()))
    assert not connection.check_capability(ClientCapabilities(sampling={}))
    assert not connection.has_standalone_channel
    with pytest.raises(NoBackChannelError):
        await connection.ping()
    await connection.send_tool_list_changed()  # dropped, not raised
    # A mis-shaped envelope value reads as not supplied.
    bare = Connection.from_envelope(version.LATEST_MODERN_VERSION, {"name": 7}, {"roots": {}})
    assert bare.client_params is None and bare.client_capabilities is not None


async def test_a_loop_connection_sends_on_its_channel() -> None:
    channel = Channel({"ping": {}, "roots/list": {"roots": [{"uri": "file:///books"}]}})
    connection = Connection.for_loop(channel, session_id="s-1")
    assert connection.protocol_version == LATEST_PROTOCOL_VERSION
    assert connection.has_standalone_channel and not connection.initialize_accepted
    assert isinstance(await connection.send_request(PingRequest()), EmptyResult)
    roots = await connection.send_request(ListRootsRequest())
    assert isinstance(roots, ListRootsResult) and str(roots.roots[0].uri) == "file:///books"
    await connection.send_resource_updated("books://dune", meta={"k": "v"})
    with pytest.warns(MCPDeprecationWarning):
        await connection.log("info", "hello", "shop")
    assert channel.sent[2:] == [
        ("notifications/resources/updated", {"uri": "books://dune", "_meta": {"k": "v"}}),
        ("notifications/message", {"level": "info", "data": "hello", "logger": "shop"}),
    ]
    channel.closed = True
    await connection.send_prompt_list_changed()  # a closed stream drops it
    connection.state["seen"] = 1
    assert connection.state == {"seen": 1} and connection.session_id == "s-1"


async def test_no_connection_wide_log_from_2026_07_28() -> None:
    channel = Channel({})
    connection = Connection.for_loop(channel, protocol_version_hint=version.LATEST_MODERN_VERSION)
    with pytest.warns(MCPDeprecationWarning):
        await connection.log("error", "lost")
    assert channel.sent == []
