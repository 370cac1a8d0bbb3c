"""Refusals core words as the official Python server words them (its dialect,
core/src/server/dialect.rs), against the official server running the same code
(peers/resolver_server.py, written once against the official `MCPServer` API):

- a request naming a session the server does not have: 404, `-32600 Session not found`
  with `"id": null` (the official TypeScript server's `-32001` stays the default
  dialect's), for POST, GET and DELETE, over real Streamable HTTP;
- a resolver's input (`Resolve` parameters) the client cannot answer: the official
  resolvers' `-32021` naming the resolver and the capability to declare, in both eras,
  with the official client as the peer over stdio.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from serving import HERE, Listening  # noqa: E402

PEER = HERE / "peers" / "resolver_server.py"
SDKS = ["official", "ferrymcp"]
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
    "mcp-session-id": "deadbeef",
}


def refusals(sdk: str) -> list[tuple[str, int, str | None, Any]]:
    """What `sdk`'s server answers a POST, a GET and a DELETE naming an unknown session."""
    server = Listening(PEER, sdk)
    try:
        seen = []
        for method in ("POST", "GET", "DELETE"):
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).encode()
            request = urllib.request.Request(
                server.url, data=body if method == "POST" else None, headers=HEADERS, method=method
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as reply:
                    status, content_type, text = reply.status, reply.headers.get("content-type"), reply.read()
            except urllib.error.HTTPError as refused:
                status, content_type, text = refused.code, refused.headers.get("content-type"), refused.read()
            seen.append((method, status, content_type, json.loads(text)))
        return seen
    finally:
        server.stop()


def test_an_unknown_session_is_refused_as_the_official_server_refuses_it() -> None:
    ours, theirs = refusals("ferrymcp"), refusals("official")
    assert ours == theirs
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Session not found"}}
    assert ours == [(method, 404, "application/json", body) for method in ("POST", "GET", "DELETE")]


async def outcome(sdk: str, mode: str, tool: str, arguments: dict[str, Any]) -> Any:
    """The error (or result) of calling `tool` on `sdk`'s server with a client that
    declares no elicitation and no roots."""
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), "stdio", sdk])
    async with mcp.Client(params, mode=mode) as client:
        try:
            result = await client.call_tool(tool, arguments)
        except mcp.MCPError as error:
            return error.error
    return result


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
@pytest.mark.parametrize(
    ("tool", "arguments", "capability", "resolver", "required"),
    [
        ("book_table", {"date": "Friday"}, "form elicitation", "ask_to_confirm", {"elicitation": {"form": {}}}),
        ("count_roots", {}, "roots", "the_roots", {"roots": {}}),
    ],
)
async def test_a_resolvers_input_the_client_cannot_answer_names_the_resolver(
    mode: str, tool: str, arguments: dict[str, Any], capability: str, resolver: str, required: dict[str, Any]
) -> None:
    ours = await outcome("ferrymcp", mode, tool, arguments)
    theirs = await outcome("official", mode, tool, arguments)
    assert ours == theirs
    assert ours == mcp.types.ErrorData(
        code=-32021,
        message=f"Client did not declare the {capability} capability required by resolver '__main__:{resolver}'",
        data={"requiredCapabilities": required},
    )
