"""What an `MCPServer` declares, against the official SDK's `MCPServer` running the same
code (peers/capabilities_server.py) over stdio and over Streamable HTTP, every stdio
message schema-checked.

Like the official one, ferrymcp's declares tools, resources and prompts even with none
registered (the API registers those lists up front), completions once `@mcp.completion()`
is used, and an extension's settings under `capabilities.extensions`. To a legacy client it
declares `listChanged` and `resources.subscribe` `false`, as the official server does
though both keep their lists (the application sends list changes itself); to a 2026-07-28
client `true` (what its `subscriptions/listen` carries). `logging` only as the official
server declares it (with a `logging/setLevel` handler: test_dialect.py); extensions to
legacy clients too (as the official TypeScript SDK does, where the official Python server
declares them to 2026-07-28 clients only). Under 1.x's API
(`FastMCP`, the low-level `Server`'s decorators) `capabilities.experimental: {}` is always
declared and `resources.subscribe` always `false`, as `mcp` 1.x's server does. See
core/src/server/capabilities.rs and core/src/server/dialect.rs.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from raw_stdio import LEGACY, MODERN, RawServer, check, modern_meta
from serving import Served

from ferrymcp.server.extension import Extension
from ferrymcp.server.mcpserver import MCPServer

PEER = Path(__file__).resolve().parent / "peers" / "capabilities_server.py"
SHAPES = ["empty", "tools", "prompts", "completion", "extension"]


def declared(sdk: str, shape: str, revision: str) -> dict[str, Any]:
    server = RawServer([sys.executable, str(PEER), sdk, shape], revision)
    try:
        if revision == MODERN:
            result = server.request(1, "DiscoverRequest", "server/discover", {"_meta": modern_meta()})["result"]
            check(MODERN, "DiscoverResult", result)
        else:
            result = server.initialize()
        capabilities: dict[str, Any] = result["capabilities"]
        return capabilities
    finally:
        assert server.close() == 0


def without_legacy_extensions(capabilities: dict[str, Any], revision: str, shape: str) -> dict[str, Any]:
    """ferrymcp declares extensions to legacy clients too (as the official TypeScript SDK
    does; the official Python server only to 2026-07-28 clients): the one deliberate
    difference."""
    if revision == LEGACY and shape == "extension":
        capabilities = dict(capabilities)
        assert capabilities.pop("extensions") == {
            "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
        }
    return capabilities


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("revision", [LEGACY, MODERN])
def test_declares_what_the_official_server_declares(shape: str, revision: str) -> None:
    official = declared("official", shape, revision)
    assert set(official) >= {"tools", "resources", "prompts"}
    assert without_legacy_extensions(declared("ferrymcp", shape, revision), revision, shape) == official
    changes = revision == MODERN
    assert official["tools"] == {"listChanged": changes}
    assert official["resources"] == {"subscribe": changes, "listChanged": changes}


def test_a_tool_returning_an_empty_list_answers_as_the_official_server() -> None:
    answers = []
    for sdk in ("official", "ferrymcp"):
        server = RawServer([sys.executable, str(PEER), sdk, "tools"], LEGACY)
        try:
            server.initialize()
            params = {"name": "nobody", "arguments": {}}
            answers.append(server.request(2, "CallToolRequest", "tools/call", params)["result"])
        finally:
            assert server.close() == 0
    official, ours = answers
    assert official["content"] == [] and official["structuredContent"] == {"result": []}
    assert official["isError"] is False  # stated on every successful call
    assert ours == official


def subscribing(sdk: str, shape: str) -> list[dict[str, Any]]:
    """What a legacy session answers to `resources/subscribe` and `resources/unsubscribe`."""
    server = RawServer([sys.executable, str(PEER), sdk, shape], LEGACY)
    try:
        declared = server.initialize()["capabilities"]["resources"]
        answers = [{"declared": declared}]
        for id, (definition, method) in enumerate(
            [("SubscribeRequest", "resources/subscribe"), ("UnsubscribeRequest", "resources/unsubscribe")], 1
        ):
            answer = server.request(id, definition, method, {"uri": "doc://a"})
            answers.append({key: answer[key] for key in ("result", "error") if key in answer})
        return answers
    finally:
        assert server.close() == 0


@pytest.mark.parametrize("shape", ["empty", "subscribe"])
def test_resources_subscribe_is_served_as_the_official_server_serves_it(shape: str) -> None:
    # An `MCPServer` answers subscriptions only with handlers registered for them (the
    # official everything server's `_lowlevel_server.add_request_handler`), and declares
    # `subscribe` accordingly; without them, -32601 as the official server answers.
    official = subscribing("official", shape)
    assert subscribing("ferrymcp", shape) == official
    if shape == "empty":
        assert official[0]["declared"]["subscribe"] is False
        assert [answer["error"]["code"] for answer in official[1:]] == [-32601, -32601]
    else:
        assert official[0]["declared"]["subscribe"] is True
        assert official[1:] == [{"result": {}}, {"result": {}}]


def declared_over_http(sdk: str, shape: str) -> dict[str, Any]:
    served = Served(
        [sys.executable, str(PEER), sdk, shape, "http"], r"(?:Uvicorn running on|listening on) (http://[^/\s]+)"
    )
    try:
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        }
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        request = urllib.request.Request(f"{served.url}/mcp", json.dumps(initialize).encode(), headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
            kind, body = response.headers["content-type"], response.read().decode()
        if kind.startswith("text/event-stream"):
            data = [line[5:] for line in body.splitlines() if line.startswith("data:")]
            message = json.loads(data[-1])
        else:
            message = json.loads(body)
        check(LEGACY, "InitializeResult", message["result"])
        capabilities: dict[str, Any] = message["result"]["capabilities"]
        return capabilities
    finally:
        served.stop()


@pytest.mark.parametrize("shape", ["tools", "extension"])
def test_declares_over_http_what_the_official_server_declares(shape: str) -> None:
    official = declared_over_http("official", shape)
    assert official["prompts"] == {"listChanged": False}
    assert without_legacy_extensions(declared_over_http("ferrymcp", shape), LEGACY, shape) == official


def test_the_1x_api_declares_what_mcp_1x_declares() -> None:
    # `mcp` 1.x's `Server.get_capabilities`: `experimental` always (`{}`), `subscribe` always
    # `false` (even with a `@server.subscribe_resource()` handler), `listChanged` from the
    # `NotificationOptions` (default `false`). The test venv holds `mcp` 2.x, so the values
    # are written out here; scripts/port-check.py --suite examples --ref v1.x compares them
    # with 1.x itself.
    fastmcp = declared("ferrymcp", "fastmcp", LEGACY)
    assert fastmcp == {
        "experimental": {},
        "tools": {"listChanged": False},
        "resources": {"subscribe": False, "listChanged": False},
        "prompts": {"listChanged": False},
    }
    lowlevel = declared("ferrymcp", "lowlevel-v1", LEGACY)
    assert lowlevel == {
        "experimental": {},
        "tools": {"listChanged": False},
        "resources": {"subscribe": False, "listChanged": False},
    }


def test_misdeclared_extensions_raise_naming_them() -> None:
    with pytest.raises(TypeError, match="vendor-prefix/name"):

        class Bare(Extension):
            identifier = "no-prefix"

    class Twice(Extension):
        identifier = "com.example/twice"

    with pytest.raises(ValueError, match="'com.example/twice' is already registered"):
        MCPServer("x", extensions=[Twice(), Twice()])
