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
    for name in ("MCP_PARAM_HEADER_PREFIX", "X_MCP_HEADER_KEY"):
        assert getattr(inbound, name) == getattr(official, name)


def prop(kind: Any, header: Any = "A", **more: Any) -> dict[str, Any]:
    return {"type": kind, "x-mcp-header": header, **more} if kind is not None else {"x-mcp-header": header, **more}


SCHEMAS: list[Any] = [
    None,
    "not a schema",
    {"type": "object"},
    {"type": "object", "properties": {"region": prop("string", "Region"), "q": {"type": "string"}}},
    {
        "properties": {
            "opts": {"type": "object", "properties": {"on": prop("boolean", "On"), "n": prop("integer", "N")}}
        }
    },
    {"x-mcp-header": "Root"},
    {"properties": {"a": {"type": "array", "items": prop("string")}}},
    {"anyOf": [{"properties": {"a": prop("string")}}]},
    {"$defs": {"d": prop("string")}, "properties": {"a": {"$ref": "#/$defs/d"}}},
    {"properties": {"a": prop("string", 7)}},
    {"properties": {"a": prop("string", True)}},
    {"properties": {"a": prop("string", None)}},
    {"properties": {"a": prop("string", "")}},
    {"properties": {"a": prop("string", "A B")}},
    {"properties": {"a": prop("string", "R\u00e9gion")}},
    {"properties": {"a": prop("number")}},
    {"properties": {"a": prop("object")}},
    {"properties": {"a": prop(["string", "null"])}},
    {"properties": {"a": prop(None)}},
    {"properties": {"it's": prop("array")}},
    {"properties": {"a": prop("string", "x"), "b": prop("integer", "X")}},
    {"properties": {"a": {"type": "string", "default": {"x-mcp-header": 1}, "examples": [{"x-mcp-header": "E"}]}}},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_the_x_mcp_header_rule_is_the_official_one(schema: Any) -> None:
    assert inbound.find_invalid_x_mcp_header(schema) == official.find_invalid_x_mcp_header(schema)
    if official.find_invalid_x_mcp_header(schema) is None:
        assert inbound.x_mcp_header_map(schema) == official.x_mcp_header_map(schema)


ROUTED = {
    "type": "object",
    "properties": {
        "region": prop("string", "Region"),
        "n": prop("integer", "N"),
        "on": prop("boolean", "On"),
        "opts": {"type": "object", "properties": {"tag": prop("string", "Tag")}},
    },
}

ARGUMENTS: list[dict[str, Any]] = [
    {},
    {"region": "us-west1", "n": 42, "on": True, "opts": {"tag": "x"}},
    {"region": " caf\u00e9\n", "n": -7, "on": False},
    {"region": None, "n": 1.0, "opts": "not an object"},
    {"region": ["a"], "n": 2.5, "on": {"x": 1}},
    {"n": 10**16 + 0.0},
    {"region": "=?base64?literal?="},
]


@pytest.mark.parametrize("arguments", ARGUMENTS)
def test_param_headers_are_emitted_as_the_official_client_emits_them(arguments: dict[str, Any]) -> None:
    header_map = official.x_mcp_header_map(ROUTED)
    assert inbound.mcp_param_headers(header_map, arguments) == official.mcp_param_headers(header_map, arguments)


ARGS = {"region": "caf\u00e9", "n": 42, "on": True}
SENT = official.mcp_param_headers(official.x_mcp_header_map(ROUTED), ARGS)
PARAM_CASES: list[tuple[Any, dict[str, Any], dict[str, str]]] = [
    (ROUTED, ARGS, SENT),
    (ROUTED, ARGS, {k.lower(): v for k, v in SENT.items()}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-N": "42.000"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-N": "42.5"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-N": "0x2a"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-N": "0042"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-On": "True"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-Region": "caf\u00e9"}),
    (ROUTED, ARGS, {**SENT, "Mcp-Param-Region": "=?base64?!!?="}),
    (ROUTED, ARGS, {k: v for k, v in SENT.items() if k != "Mcp-Param-Region"}),
    (ROUTED, {**ARGS, "opts": {"tag": "t"}}, SENT),
    (ROUTED, {"n": 42}, {**SENT}),
    (ROUTED, {"region": ["a"]}, {"Mcp-Param-Region": "a"}),
    (ROUTED, {"region": ["a"]}, {}),
    (ROUTED, {"n": 42.0}, {"Mcp-Param-N": "42"}),
    (ROUTED, {"n": True}, {"Mcp-Param-N": "1"}),
    ({"properties": {"a": prop("number")}}, {"a": 1}, {"Mcp-Param-A": "2"}),
]


@pytest.mark.parametrize(("schema", "arguments", "headers"), PARAM_CASES)
def test_param_headers_are_validated_as_the_official_server_validates_them(
    schema: Any, arguments: dict[str, Any], headers: dict[str, str]
) -> None:
    expected = official.validate_mcp_param_headers(schema, arguments, headers)
    got = inbound.validate_mcp_param_headers(schema, arguments, headers)
    assert (None if got is None else dataclasses.astuple(got)) == (
        None if expected is None else dataclasses.astuple(expected)
    )


def test_a_param_header_sent_twice_is_refused() -> None:
    class Lines(dict[str, str]):
        """Raw header lines, as a server's header object gives them (duplicates kept)."""

        def __init__(self, lines: list[tuple[str, str]]) -> None:
            super().__init__(lines)
            self.lines = lines

        def items(self) -> Any:
            return self.lines

    lines = Lines([*SENT.items(), ("mcp-param-n", "42")])
    expected = official.validate_mcp_param_headers(ROUTED, ARGS, lines)
    assert expected is not None
    got = inbound.validate_mcp_param_headers(ROUTED, ARGS, lines)
    assert got == inbound.InboundLadderRejection(expected.code, expected.message, expected.data)


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


@pytest.fixture(scope="module")
def bare() -> Any:
    servers = {sdk: Listening(HERE / "peers" / "inbound_server.py", sdk, "bare") for sdk in ("official", "ferrymcp")}
    yield servers
    for server in servers.values():
        server.stop()


def echo(arguments: dict[str, Any]) -> dict[str, Any]:
    return call(ENVELOPE) | {"params": {"name": "echo", "arguments": arguments, "_meta": ENVELOPE}}


BARE_CASES: list[tuple[str, Any, dict[str, str]]] = [
    ("Mcp-Name names another tool", echo({"text": "x"}), {**HEADERS, "mcp-name": "other"}),
    ("the envelope names another version", call({**ENVELOPE, PV: "2099-01-01"}), HEADERS),
    ("the envelope lacks the capabilities", call({PV: MODERN}), HEADERS),
    ("Mcp-Method names another method", call(ENVELOPE), {**HEADERS, "mcp-method": "tools/list"}),
    ("an unknown method", call(ENVELOPE, method="nope/nothing"), {**HEADERS, "mcp-method": "nope/nothing"}),
    (
        "an unknown resource (a dispatched -32602)",
        {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "data://none", "_meta": ENVELOPE}},
        {**HEADERS, "mcp-method": "resources/read", "mcp-name": "data://none"},
    ),
]


@pytest.mark.parametrize(("case", "body", "headers"), BARE_CASES, ids=[case for case, _, _ in BARE_CASES])
async def test_the_servers_own_transport_refuses_as_the_official_one(
    bare: dict[str, Listening], case: str, body: Any, headers: dict[str, str]
) -> None:
    status, answer = await asyncio.to_thread(post, bare["official"].url, body, headers)
    assert "error" in answer, case
    assert status == 404 if "unknown method" in case else status == 400, case
    assert await asyncio.to_thread(post, bare["ferrymcp"].url, body, headers) == (status, answer), case
