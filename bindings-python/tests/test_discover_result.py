"""`ClientSession.discover_result` and `Client(prior_discover=...)`, as the official 2.x
client has them: the `server/discover` answer of a 2026-07-28 connection is kept (none after
an `initialize` handshake); given back with a pinned `mode`, it is adopted without asking
the server again (core's `EraPreference::Pinned`); under "auto" and "legacy" it is ignored.

The server is a stdio process whose middleware records every message it receives
(tests/middleware_peer.py), so what the client sent is observed on the server's side.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import middleware_peer  # noqa: E402

from ferrymcp import Client  # noqa: E402
from ferrymcp.types import SERVER_INFO_META_KEY, DiscoverResult, Implementation, ServerCapabilities  # noqa: E402

SERVER = [sys.executable, middleware_peer.__file__]


async def methods_seen(client: Client) -> list[str]:
    return [method for method, _ in json.loads((await client.call_tool("seen", {})).content[0].text)]


async def test_the_discover_result_is_kept_and_adopted_again() -> None:
    async with Client(SERVER) as client:
        saved = client.session.discover_result
        assert client.session.initialize_result is None
        assert (await methods_seen(client))[0] == "server/discover"
    assert saved is not None and saved.supported_versions == ["2026-07-28"]
    assert saved.capabilities.tools is not None

    # Through JSON and back, then pinned: the server is asked nothing before the call.
    restored = DiscoverResult.model_validate_json(saved.model_dump_json())
    async with Client(SERVER, mode="2026-07-28", prior_discover=restored) as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None and client.server_info.name == "gated"
        assert client.server_capabilities.tools is not None
        assert client.session.discover_result == restored
        seen = await methods_seen(client)
        assert "server/discover" not in seen and seen[0] == "tools/call"


async def test_a_prior_result_is_ignored_unless_the_mode_is_a_pin() -> None:
    stale = DiscoverResult(
        supported_versions=["2026-07-28"],
        capabilities=ServerCapabilities(),
        _meta={SERVER_INFO_META_KEY: Implementation(name="Stale", version="0").model_dump(exclude_none=True)},
    )
    async with Client(SERVER, prior_discover=stale) as client:
        assert client.server_info is not None and client.server_info.name == "gated"
        assert (await methods_seen(client))[0] == "server/discover"
    async with Client(SERVER, mode="legacy", prior_discover=stale) as client:
        assert client.session.discover_result is None
        assert client.session.initialize_result is not None
        assert client.protocol_version == "2025-11-25"


def test_prior_discover_must_be_a_discover_result() -> None:
    not_a_result: Any = {"supportedVersions": ["2026-07-28"]}
    with pytest.raises(TypeError, match="prior_discover must be a DiscoverResult, not dict"):
        Client(SERVER, mode="2026-07-28", prior_discover=not_a_result)
