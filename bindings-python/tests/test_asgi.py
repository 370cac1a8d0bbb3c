"""`mcp.streamable_http_app()` under uvicorn on 127.0.0.1, with the official SDK's client
(PyPI `mcp` 2.3.0) as the peer in both eras: standalone (the app's own lifespan runs the
server) and mounted in a Starlette app at `/api` and at `/` (the host app's lifespan
enters `mcp.session_manager.run()`, the official documented pattern). Tool calls, progress on
the SSE stream, elicitation, a custom route, a client disconnect that cancels the tool,
Host and Origin checks (`transport_security`), and a clean exit on Ctrl-C.

Needs the native module, `mcp`, uvicorn and Starlette.
"""

import asyncio
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from serving import Served, uvicorn

ERAS = ["legacy", "2026-07-28"]
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
# Bounds that only keep a broken server from hanging the suite.
CANCEL_LIMIT = 10.0


@pytest.fixture(scope="module", params=["standalone", "mounted", "mounted_at_root"])
def app(request: pytest.FixtureRequest) -> Iterator[tuple[Served, str]]:
    """The server, and the prefix its routes live under."""
    served = uvicorn(request.param)
    yield served, "/api" if request.param == "mounted" else ""
    assert served.stop() == 0, "".join(served.lines)
    assert "Traceback" not in "".join(served.lines)


async def elicitation(context: Any, params: Any) -> Any:
    return mcp.types.ElicitResult(action="accept", content={"name": "Ada"})


@pytest.mark.parametrize("mode", ERAS)
async def test_the_official_client_calls_tools_with_progress_and_elicitation(
    app: tuple[Served, str], mode: str
) -> None:
    served, prefix = app
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async with mcp.Client(f"{served.url}{prefix}/mcp", mode=mode, elicitation_callback=elicitation) as client:
        assert client.protocol_version == ("2026-07-28" if mode != "legacy" else "2025-11-25")
        assert [t.name for t in (await client.list_tools()).tools] == ["add", "count", "ask", "hold"]
        assert (await client.call_tool("add", {"a": 2, "b": 40})).structured_content == {"result": 42}
        counted = await client.call_tool("count", {"steps": 3}, progress_callback=on_progress)
        assert counted.content[0].text == "counted 3"
        # legacy: `ctx.elicit`, a request to the client; 2026-07-28: a round (`ctx.request_input`), the
        # official `elicit` having no back-channel there (the peer's `ask` picks by era)
        assert (await client.call_tool("ask", {})).content[0].text == "hello Ada"
        unknown = await client.call_tool("no_such_tool", {})
        assert unknown.is_error and unknown.content[0].text == "Unknown tool: no_such_tool"
    assert progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def http(
    served: Served, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 exchange over a raw socket (nothing between the test and the server)."""
    host, port = served.url.removeprefix("http://").split(":")
    head = {"Host": f"{host}:{port}", "Content-Length": str(len(body)), "Connection": "close", **(headers or {})}
    request = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(request.encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status_line, _, rest = data.partition(b"\r\n")
    raw_headers, _, payload = rest.partition(b"\r\n\r\n")
    fields = dict(line.decode().split(": ", 1) for line in raw_headers.split(b"\r\n"))
    return int(status_line.split()[1]), {k.lower(): v for k, v in fields.items()}, payload


def test_a_custom_route_is_served_beside_the_endpoint(app: tuple[Served, str]) -> None:
    served, prefix = app
    status, _, body = http(served, "GET", f"{prefix}/health")
    assert (status, body) == (200, b"ok")
    status, _, _ = http(served, "GET", f"{prefix}/elsewhere")
    assert status == 404


def test_a_bad_origin_is_refused_with_403(app: tuple[Served, str]) -> None:
    # The official Python SDK's refusal: plain text, no Content-Type.
    served, prefix = app
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    status, fields, payload = http(served, "POST", f"{prefix}/mcp", body, {**headers, "Origin": "http://evil.example"})
    assert (status, payload) == (403, b"Invalid Origin header") and "content-type" not in fields
    status, _, _ = http(served, "POST", f"{prefix}/mcp", body, {**headers, "Origin": "http://localhost:5173"})
    assert status != 403


def modern_call(
    name: str, arguments: dict[str, Any], progress_token: int | None = None
) -> tuple[bytes, dict[str, str]]:
    meta = dict(MODERN_META, **({"progressToken": progress_token} if progress_token is not None else {}))
    params = {"name": name, "arguments": arguments, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    return body, headers


@pytest.mark.parametrize("progress", [True, False], ids=["sse", "json"])
async def test_a_client_disconnect_cancels_the_2026_tool(
    app: tuple[Served, str], tmp_path: Path, progress: bool
) -> None:
    # With a progress token the answer is an SSE stream (its first event is read before
    # hanging up); without, nothing is sent before the result, and the client leaves
    # while core is still waiting for it.
    served, prefix = app
    marker = tmp_path / "cancelled"
    body, headers = modern_call("hold", {"marker": str(marker)}, 7 if progress else None)
    host, port = served.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head = {"Host": f"{host}:{port}", "Content-Length": str(len(body)), **headers}
    request = f"POST {prefix}/mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    writer.write(request.encode() + body)
    await writer.drain()
    if progress:
        seen = b""
        while b"holding" not in seen:
            chunk = await asyncio.wait_for(reader.read(4096), CANCEL_LIMIT)
            assert chunk, seen
            seen += chunk
        assert b"content-type: text/event-stream" in seen.lower()
    await until(lambda: marker.exists() and marker.read_text() == "started", "the tool did not start")
    writer.close()
    await until(lambda: marker.read_text() == "cancelled", "the tool was not cancelled")


async def until(condition: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + CANCEL_LIMIT
    while not condition():
        assert time.monotonic() < deadline, failure
        await asyncio.sleep(0.02)


@pytest.fixture(scope="module")
def guarded() -> Iterator[Served]:
    served = uvicorn("guarded")
    yield served
    assert served.stop() == 0


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "https://app.example.com"}, 200),
        ({"Origin": "http://localhost:3000"}, 403),
        ({"Origin": "https://evil.example"}, 403),
        ({"Host": "evil.example:80"}, 421),
    ],
)
def test_transport_security_chooses_hosts_and_origins(guarded: Served, headers: dict[str, str], status: int) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": MODERN_META}}).encode()
    base = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/list",
    }
    assert http(guarded, "POST", "/mcp", body, {**base, **headers})[0] == status


def test_a_body_over_the_limit_is_refused_with_413(guarded: Served) -> None:
    params = {"name": "add", "arguments": {"a": 1, "b": 2, "pad": "x" * 8192}, "_meta": MODERN_META}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    status, _, payload = http(guarded, "POST", "/mcp", body, headers)
    assert (status, payload) == (413, b"Request body too large")


def test_the_refusals_before_the_body_come_in_the_official_order(guarded: Served) -> None:
    """As the official Python SDK: a declared size over the limit is 413 before anything
    else (even a body that is not JSON from a refused Host), then a non-JSON POST is 400,
    then a refused Host 421 (plain text, no Content-Type), all before the MCP endpoint's own
    checks (415, 406)."""
    small, large = b"{}", b"x" * 8192
    evil = {"Host": "evil.example:80"}
    status, fields, payload = http(guarded, "POST", "/mcp", large, {"Content-Type": "text/plain", **evil})
    assert (status, payload) == (413, b"Request body too large") and "content-type" not in fields
    status, _, payload = http(guarded, "POST", "/mcp", small, {"Content-Type": "text/plain", **evil})
    assert (status, payload) == (400, b"Invalid Content-Type header")
    status, fields, payload = http(guarded, "POST", "/mcp", small, {"Content-Type": "application/json", **evil})
    assert (status, payload) == (421, b"Invalid Host header") and "content-type" not in fields
    status, _, _ = http(guarded, "POST", "/mcp", small, {"Content-Type": "application/json"})
    assert status == 406


def test_a_refused_host_or_origin_is_logged_on_the_official_logger() -> None:
    """The refusals go to the server's log as the official SDK words them, on its logger
    `mcp.server.transport_security` in ferrymcp's namespace (core's events, forwarded to
    Python's `logging`): what an operator greps for after a 421 or a 403."""
    served = uvicorn("logged")
    try:
        base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        assert http(served, "POST", "/mcp", b"{}", {**base, "Host": "mcp.example.com"})[0] == 421
        assert http(served, "POST", "/mcp", b"{}", {**base, "Origin": "https://evil.example"})[0] == 403
    finally:
        assert served.stop() == 0
    logged = [line.strip() for line in served.output().splitlines() if line.startswith("log|")]
    assert logged == [
        "log|ferrymcp.server.transport_security|WARNING|Invalid Host header: mcp.example.com",
        "log|ferrymcp.server.transport_security|WARNING|Invalid Origin header: https://evil.example",
    ]


def test_the_app_is_a_starlette_app_with_the_official_routes() -> None:
    """With Starlette installed, `streamable_http_app()` is a Starlette app as the official
    one is: a route for the endpoint, one for the protected resource metadata when auth names
    a resource, then the custom routes (the apps above are served by uvicorn through it)."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    from ferrymcp.server.auth.settings import AuthSettings
    from ferrymcp.server.mcpserver import MCPServer

    class Verifier:
        async def verify_token(self, token: str) -> None:
            return None

    plain = MCPServer("plain")

    @plain.custom_route("/health", methods=["GET"])
    async def health(request: Any) -> Any:
        raise AssertionError("not called")

    app = plain.streamable_http_app(streamable_http_path="/")
    assert isinstance(app, Starlette)
    assert [(type(r), r.path) for r in app.routes] == [(Route, "/"), (Route, "/health")]
    settings = AuthSettings(issuer_url="https://auth.example.com", resource_server_url="https://mcp.example.com/mcp")
    guarded = MCPServer("guarded", auth=settings, token_verifier=Verifier())
    paths = [r.path for r in guarded.streamable_http_app().routes]
    assert paths == ["/mcp", "/.well-known/oauth-protected-resource/mcp"]


@pytest.fixture(scope="module", params=["polling", "polling_lowlevel"])
def polling(request: pytest.FixtureRequest) -> Iterator[Served]:
    served = uvicorn(request.param)
    yield served
    assert served.stop() == 0, "".join(served.lines)
    assert "Traceback" not in "".join(served.lines)


def exchange(served: Served, method: str, body: bytes, headers: dict[str, str]) -> tuple[str, bytes]:
    """One request on a connection of its own: the head, and the body up to the server's end
    of the response (a stream that never ends is a timeout)."""
    host, port = served.url.removeprefix("http://").split(":")
    head = {"Host": f"{host}:{port}", "Content-Length": str(len(body)), "Connection": "close", **headers}
    request = f"{method} /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    with socket.create_connection((host, int(port)), timeout=CANCEL_LIMIT) as sock:
        sock.sendall(request.encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head_text, _, payload = data.partition(b"\r\n\r\n")
    return head_text.decode(), payload


def legacy_session(served: Served) -> dict[str, str]:
    """A 2025-11-25 session's headers, initialized."""
    accept = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    head, _ = exchange(served, "POST", body, accept)
    session = next(line.split(": ", 1)[1] for line in head.split("\r\n") if line.lower().startswith("mcp-session-id"))
    headers = {**accept, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    exchange(served, "POST", json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode(), headers)
    return headers


def test_close_sse_stream_ends_the_post_stream_and_the_rest_waits_for_the_client(polling: Served) -> None:
    """`ctx.close_sse_stream()` (SEP-1699) ends the POST's SSE response after what came
    before it (the priming event and the first progress); the rest waits in the event store
    for the client to resume with `Last-Event-ID`, as under `run()`."""
    headers = legacy_session(polling)
    params = {"name": "long_operation", "arguments": {}, "_meta": {"progressToken": 7}}
    body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}).encode()
    _, payload = exchange(polling, "POST", body, headers)
    text = payload.decode()
    assert "retry:" in text and "before-close" in text
    assert "after-close" not in text and '"result"' not in text


@pytest.mark.parametrize("mode", ERAS)
async def test_the_official_client_resumes_a_stream_the_tool_closed(polling: Served, mode: str) -> None:
    """The official sse-polling story against the app: the client sees the stream end,
    resumes with `Last-Event-ID` and gets the progress sent meanwhile and the answer. At
    2026-07-28 there is no stream to resume: the low-level context has no closers there."""
    messages: list[str | None] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message)

    async with mcp.Client(f"{polling.url}/mcp", mode=mode) as client:
        result = await asyncio.wait_for(client.call_tool("long_operation", {}, progress_callback=on_progress), 30)
    assert messages == ["before-close", "after-close"]
    assert result.content[0].text in ("resumed", "not closable")
    if mode == "legacy":
        assert result.content[0].text == "resumed"


def test_close_standalone_sse_stream_ends_the_get_stream(polling: Served) -> None:
    """`close_standalone_sse_stream()` ends the session's standalone GET stream (the client
    resumes it with `Last-Event-ID`)."""
    headers = legacy_session(polling)
    host, port = polling.url.removeprefix("http://").split(":")
    head = {"Host": f"{host}:{port}", "Accept": "text/event-stream", **headers, "Connection": "close"}
    request = "GET /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    with socket.create_connection((host, int(port)), timeout=CANCEL_LIMIT) as standalone:
        standalone.sendall(request.encode())
        opened = standalone.recv(65536)
        assert opened.startswith(b"HTTP/1.1 200")
        params = {"name": "close_standalone", "arguments": {}}
        body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params}).encode()
        _, answer = exchange(polling, "POST", body, headers)
        assert b'"closed"' in answer
        while standalone.recv(65536):  # the server ends the stream (a timeout if it does not)
            pass
