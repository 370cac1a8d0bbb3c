"""`ferrymcp.shared.inbound` (the official `mcp.shared.inbound`): the official validation
ladder for a 2026-07-28 request, which the engine runs (core's `protocol::inbound`, the
official wording) and the module only converts values for.

The official module is the reference: the same bodies and headers go through both and
must get the same verdict, and a real dual-era HTTP server that routes on the ladder
(peers/inbound_server.py, written once against the official API and run on the official
SDK and on ferrymcp) answers the official client and malformed requests alike.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
official = pytest.importorskip("mcp.shared.inbound")

from serving import HERE, Listening  # noqa: E402

from ferrymcp.shared import inbound  # noqa: E402

PV = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
INFO = "io.modelcontextprotocol/clientInfo"
MODERN = "2026-07-28"


def call(meta: Any, name: Any = "echo", method: Any = "tools/call") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"name": name, "_meta": meta}}


ENVELOPE = {PV: MODERN, CAPS: {}, INFO: {"name": "t", "version": "1"}}
HEADERS = {"mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo"}

CASES: list[tuple[Any, dict[str, str] | None]] = [
    ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, {}),
    ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, None),
    ({"method": "tools/list", "params": [1]}, None),
    (call("not an object"), None),
    (call({}), None),
    (call({PV: MODERN}), None),
    (call({CAPS: {}}), HEADERS),
    (call(ENVELOPE), None),
    (call(ENVELOPE), HEADERS),
    (call({PV: MODERN, CAPS: {}}), HEADERS),
    (call(ENVELOPE), {**HEADERS, "mcp-protocol-version": "2025-11-25"}),
    (call(ENVELOPE), {"mcp-method": "tools/call", "mcp-name": "echo"}),
    (call(ENVELOPE), {**HEADERS, "mcp-method": "tools/list"}),
    (call(ENVELOPE), {"mcp-protocol-version": MODERN}),
    (call(ENVELOPE), {**HEADERS, "mcp-name": "other"}),
    (call(ENVELOPE), {k: v for k, v in HEADERS.items() if k != "mcp-name"}),
    (call(ENVELOPE, name="caf\u00e9 \n"), {**HEADERS, "mcp-name": official.encode_header_value("caf\u00e9 \n")}),
    (call(ENVELOPE, name="x"), {**HEADERS, "mcp-name": "=?base64?eA=?="}),
    (call(ENVELOPE, name=7), {**HEADERS, "mcp-name": "7"}),
    (call(ENVELOPE, name=None), {**HEADERS, "mcp-name": "anything"}),
    (
        {"method": "resources/read", "params": {"uri": "file:///a", "_meta": ENVELOPE}},
        {"mcp-protocol-version": MODERN, "mcp-method": "resources/read", "mcp-name": "file:///b"},
    ),
    (
        {"method": "tasks/get", "params": {"taskId": "t1", "_meta": ENVELOPE}},
        {"mcp-protocol-version": MODERN, "mcp-method": "tasks/get"},
    ),
    (call({PV: 20260728, CAPS: {}}), None),
    (call({PV: None, CAPS: {}}), None),
    (call({PV: "2025-11-25", CAPS: {}}), None),
    (call({PV: "2099-01-01", CAPS: {}}), {**HEADERS, "mcp-protocol-version": "2099-01-01"}),
]


def verdict(result: Any) -> tuple[str, dict[str, Any]]:
    return type(result).__name__, dataclasses.asdict(result)


@pytest.mark.parametrize(("body", "headers"), CASES)
def test_the_ladder_answers_as_the_official_one(body: Any, headers: dict[str, str] | None) -> None:
    expected = verdict(official.classify_inbound_request(body, headers=headers))
    assert verdict(inbound.classify_inbound_request(body, headers=headers)) == expected


def test_a_server_may_name_its_own_supported_revisions() -> None:
    body = call({PV: MODERN, CAPS: {}})
    for supported in (["2099-01-01"], [MODERN, "2099-01-01"], []):
        expected = verdict(official.classify_inbound_request(body, supported_modern_versions=supported))
        assert verdict(inbound.classify_inbound_request(body, supported_modern_versions=supported)) == expected
    assert inbound.unsupported_protocol_version_rejection(MODERN) is None
    expected = official.unsupported_protocol_version_rejection("2025-06-18", [MODERN])
    assert inbound.unsupported_protocol_version_rejection("2025-06-18", [MODERN]) == inbound.InboundLadderRejection(
        expected.code, expected.message, expected.data
    )


def test_the_tables_and_the_header_codec_are_the_official_ones() -> None:
    assert dict(inbound.ERROR_CODE_HTTP_STATUS) == dict(official.ERROR_CODE_HTTP_STATUS)
    assert dict(inbound.NAME_BEARING_METHODS) == dict(official.NAME_BEARING_METHODS)
    for name in ("MCP_PROTOCOL_VERSION_HEADER", "MCP_METHOD_HEADER", "MCP_NAME_HEADER"):
        assert getattr(inbound, name) == getattr(official, name)
    for value in ["plain", " edge", "tab\tx", "caf\u00e9", "=?base64?x?=", "=?base64?=", ""]:
        assert inbound.encode_header_value(value) == official.encode_header_value(value)
    for value in [
        None,
        "plain",
        "=?base64?eA==?=",
        "=?base64?eA=?=",
        "=?base64?!!?=",
        "=?base64?/w==?=",
        "=?base64?QR==?=",
    ]:
        assert inbound.decode_header_value(value) == official.decode_header_value(value)
    lines = [("Mcp-Method", "a"), ("accept", "b"), ("mcp-method", "c")]
    assert inbound.find_duplicated_routing_header(lines) == official.find_duplicated_routing_header(lines)
    assert inbound.find_duplicated_routing_header([("mcp-param-a", "1"), ("Mcp-Param-A", "2")]) is None
    with pytest.raises(ImportError, match="validate_mcp_param_headers"):
        from ferrymcp.shared.inbound import validate_mcp_param_headers  # noqa: F401


@pytest.fixture(params=["official", "ferrymcp"])
def routed(request: pytest.FixtureRequest) -> Any:
    server = Listening(HERE / "peers" / "inbound_server.py", request.param)
    yield server
    server.stop()


async def test_the_official_client_is_routed_in_both_eras(routed: Listening) -> None:
    async with mcp.Client(routed.url) as modern:
        assert modern.protocol_version == MODERN
        assert (await modern.call_tool("echo", {"text": "m"})).content[0].text == "m"
    async with mcp.Client(routed.url, mode="legacy") as legacy:
        assert legacy.protocol_version != MODERN
        assert (await legacy.call_tool("echo", {"text": "l"})).content[0].text == "l"


def post(url: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json", **headers}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


async def test_a_malformed_modern_request_gets_the_official_rung(routed: Listening) -> None:
    body = call(ENVELOPE) | {"params": {"name": "echo", "arguments": {"text": "x"}, "_meta": ENVELOPE}}
    headers = {**HEADERS, "mcp-protocol-version": "2025-11-25"}
    status, answer = await asyncio.to_thread(post, routed.url, body, headers)
    assert status == 400
    assert answer["error"] == {
        "code": -32020,
        "message": "mcp-protocol-version header does not match the request envelope's protocol version",
    }
    old = call({PV: "2024-01-01", CAPS: {}})
    status, answer = await asyncio.to_thread(post, routed.url, old, {**HEADERS, "mcp-protocol-version": "2024-01-01"})
    assert status == 400
    assert answer["error"] == {
        "code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": [MODERN], "requested": "2024-01-01"},
    }
