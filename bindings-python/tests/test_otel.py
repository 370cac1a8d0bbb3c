"""OpenTelemetry (`mcp.server._otel.OpenTelemetryMiddleware`, first on every server's
middleware list): one `SERVER` span per inbound message with the official span names and
attributes, compared with the official server's spans for the same calls by the official
client; the span is the child of the client's span (its trace context crosses in the
request's `_meta`, sent by the official client or ferrymcp's) and the parent of the spans a
tool starts; taking the middleware off the list turns tracing off; and `import ferrymcp`
does not import `opentelemetry`. Client and server are real processes
(tests/peers/otel_client.py, otel_server.py), each exporting its spans in memory.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("opentelemetry.sdk")
pytest.importorskip("mcp")

from serving import HERE  # noqa: E402

CLIENT = str(HERE / "peers" / "otel_client.py")
ERAS = ["legacy", "2026-07-28"]
LIMIT = 120.0  # only keeps a broken peer from hanging the suite


def exercise(client: str, mode: str, *server_args: str) -> dict[str, list[dict[str, Any]]]:
    """The spans of both sides for the same calls (see otel_client.py)."""
    done = subprocess.run(
        [sys.executable, CLIENT, client, mode, *server_args], capture_output=True, text=True, timeout=LIMIT
    )
    assert done.returncode == 0, done.stderr
    spans: dict[str, list[dict[str, Any]]] = json.loads(done.stdout)
    return spans


def decided(spans: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What the official SDK decides of each server span: name, kind, scope, attributes,
    status. One known difference is set aside: on `initialize`, before any revision is
    negotiated, the official server states the newest one `initialize` negotiates as
    `mcp.protocol.version` and ferrymcp states none (core has no revision for the message)."""
    kept = []
    for s in spans:
        if s["kind"] != "SERVER":
            continue
        attributes = dict(s["attributes"])
        if s["name"] == "initialize":
            attributes.pop("mcp.protocol.version")
        kept.append((s["name"], s["kind"], s["scope"], attributes, s["status"], s["description"]))
    return kept


@pytest.mark.parametrize("mode", ERAS)
def test_the_spans_are_the_official_servers(mode: str) -> None:
    ours = exercise("official", mode)["server"]
    theirs = exercise("official", mode, "official")["server"]
    assert decided(ours) == decided(theirs)
    by_name = {s["name"]: s for s in ours}
    call = by_name["tools/call search_books"]["attributes"]
    assert call["mcp.method.name"] == "tools/call"
    assert call["gen_ai.operation.name"] == "execute_tool"
    assert call["gen_ai.tool.name"] == "search_books"
    assert "jsonrpc.request.id" in call
    assert by_name["prompts/get recommend"]["attributes"]["gen_ai.prompt.name"] == "recommend"
    failed = by_name["tools/call out_of_stock"]
    assert (failed["status"], failed["attributes"]["error.type"]) == ("ERROR", "tool_error")
    refused = by_name["resources/read"]
    assert refused["status"] == "ERROR"
    assert refused["attributes"]["error.type"] == refused["attributes"]["rpc.response.status_code"]


@pytest.mark.parametrize("client", ["official", "ferrymcp"])
@pytest.mark.parametrize("mode", ERAS)
def test_one_trace_from_the_client_through_the_tool(client: str, mode: str) -> None:
    both = exercise(client, mode)
    spans = {s["name"]: s for s in both["server"]}
    sent = {s["name"]: s for s in both["client"]}
    for tool, inner in (("search_books", "catalog lookup"), ("reserve", "reservation")):
        request = sent[f"MCP send tools/call {tool}"]
        assert (request["kind"], request["attributes"]["mcp.method.name"]) == ("CLIENT", "tools/call")
        server = spans[f"tools/call {tool}"]
        # The client's trace context crossed in `_meta`: the server span is its child ...
        assert (server["trace_id"], server["parent"]) == (request["trace_id"], request["span_id"])
        # ... and the span the tool started is the server span's (sync and async tools).
        assert (spans[inner]["trace_id"], spans[inner]["parent"]) == (server["trace_id"], server["span_id"])


def test_taking_the_middleware_off_turns_tracing_off() -> None:
    spans = exercise("official", "legacy", "untraced")["server"]
    assert [s for s in spans if s["kind"] == "SERVER"] == []
    assert {s["name"] for s in spans} == {"catalog lookup", "reservation"}


def test_importing_ferrymcp_does_not_import_opentelemetry() -> None:
    code = (
        "import sys, ferrymcp\n"
        "from ferrymcp.server import MCPServer, Server\n"
        "from ferrymcp.server._otel import OpenTelemetryMiddleware\n"
        "server = MCPServer('quiet')\n"
        "assert isinstance(server.middleware[0], OpenTelemetryMiddleware), server.middleware\n"
        "assert isinstance(Server('low').middleware[0], OpenTelemetryMiddleware)\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=LIMIT)
    assert out.stdout.strip() == "[]"
