"""`mcp.run("streamable-http")`: ferrymcp servers as real processes on 127.0.0.1, served by
the engine's HTTP server, with the official SDK's client (PyPI `mcp` 2.3.0, Streamable
HTTP) as the peer in both eras: tool calls with progress, elicitation (a request on the
legacy session's stream, an MRTR round on 2026-07-28), inputs asked together; and how the
process stops (SIGINT and SIGTERM: graceful, exit 0) or fails to start.

Needs the native module and `mcp`.
"""

import asyncio
import json
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

if sys.version_info < (3, 11):
    from exceptiongroup import BaseExceptionGroup

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from conftest import PYTHON_EVERYTHING

FIXTURE = [sys.executable, str(PYTHON_EVERYTHING), "--transport", "http", "--port", "0"]
ERAS = ["legacy", "2026-07-28"]
# Generous bounds that only keep a broken server from hanging the suite.
START_LIMIT = 30.0
STOP_LIMIT = 30.0


class Running:
    """A server process and the URL it announced."""

    def __init__(self, process: asyncio.subprocess.Process, url: str) -> None:
        self.process = process
        self.url = url

    async def stop(self, signum: int) -> int:
        self.process.send_signal(signum)
        return await asyncio.wait_for(self.process.wait(), STOP_LIMIT)


async def start(command: list[str]) -> Running:
    process = await asyncio.create_subprocess_exec(
        *command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    seen = []
    while True:
        line = (await asyncio.wait_for(process.stderr.readline(), START_LIMIT)).decode()
        if not line:
            raise AssertionError(f"the server exited before listening: {''.join(seen)}")
        seen.append(line)
        if line.startswith("listening on "):
            return Running(process, line.removeprefix("listening on ").strip())


@pytest.fixture
async def fixture_server() -> AsyncIterator[Running]:
    server = await start(FIXTURE)
    yield server
    if server.process.returncode is None:
        assert await server.stop(signal.SIGINT) == 0


async def sampling(context: Any, params: Any) -> Any:
    return mcp.types.CreateMessageResult(
        role="assistant", content=mcp.types.TextContent(type="text", text="Paris"), model="m", stop_reason="endTurn"
    )


async def elicitation(context: Any, params: Any) -> Any:
    return mcp.types.ElicitResult(action="accept", content={"name": "Ada", "response": "yes"})


async def roots(context: Any) -> Any:
    return mcp.types.ListRootsResult(roots=[mcp.types.Root(uri="file:///work", name="work")])


def client(url: str, mode: str) -> Any:
    return mcp.Client(
        url, mode=mode, sampling_callback=sampling, elicitation_callback=elicitation, list_roots_callback=roots
    )


async def test_the_server_announces_a_loopback_url(fixture_server: Running) -> None:
    assert fixture_server.url.startswith("http://127.0.0.1:") and fixture_server.url.endswith("/mcp")


@pytest.mark.parametrize("mode", ERAS)
async def test_the_official_client_lists_and_calls_tools(fixture_server: Running, mode: str) -> None:
    async with client(fixture_server.url, mode) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert names[0] == "test_simple_text" and "test_tool_with_progress" in names
        simple = await c.call_tool("test_simple_text", {})
        assert simple.content[0].text == "This is a simple text response for testing."
        failing = await c.call_tool("test_error_handling", {})
        assert failing.is_error is True
        # A crash (the fixture's `RuntimeError`): its text stays on the server, as in `mcp` 2.3.
        assert failing.content[0].text == "Error executing tool test_error_handling"
        unknown = await c.call_tool("no_such_tool", {})
        assert unknown.is_error and unknown.content[0].text == "Unknown tool: no_such_tool"


@pytest.mark.parametrize("mode", ERAS)
async def test_progress_reaches_the_official_client(fixture_server: Running, mode: str) -> None:
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async with client(fixture_server.url, mode) as c:
        result = await c.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
        assert result.is_error is not True
    assert [p[0] for p in progress] == [0, 50, 100]
    assert progress[-1] == (100, 100, "Completed step 100 of 100")


@pytest.mark.parametrize("mode", ERAS)
async def test_an_elicitation_round_with_the_official_client(fixture_server: Running, mode: str) -> None:
    async with client(fixture_server.url, mode) as c:
        result = await c.call_tool("test_elicitation", {"message": "Proceed?"})
        sampled = await c.call_tool("test_sampling", {"prompt": "capital?"})
        if mode == "2026-07-28":
            # The session's requests have no back-channel there (as the official reference
            # server answers); the rounds are the `test_input_required_result_*` tools'.
            assert "no back-channel for server-initiated requests" in result.content[0].text
            assert "no back-channel for server-initiated requests" in sampled.content[0].text
            return
        assert result.content[0].text == 'User response: action=accept, content={"name":"Ada","response":"yes"}'
        assert "Paris" in sampled.content[0].text


async def test_inputs_awaited_together_form_one_round(fixture_server: Running) -> None:
    # The tool asks three inputs with asyncio.gather, one at a time from the loop thread:
    # the first 2026-07-28 answer must still name all three.
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
    }
    name = "test_input_required_result_multiple_inputs"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": {}, "_meta": meta}}
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    request = urllib.request.Request(fixture_server.url, json.dumps(body).encode(), headers, method="POST")
    request.add_header("Content-Type", "application/json")
    with await asyncio.to_thread(urllib.request.urlopen, request) as response:
        assert response.status == 200 and response.headers["content-type"].startswith("application/json")
        result = json.loads(response.read())["result"]
    assert result["resultType"] == "input_required"
    requests = result["inputRequests"]
    assert {key: r["method"] for key, r in requests.items()} == {
        "user_name": "elicitation/create",
        "greeting": "sampling/createMessage",
        "client_roots": "roots/list",
    }

    async with client(fixture_server.url, "2026-07-28") as c:
        answered = await c.call_tool(name, {})
    assert answered.content[0].text == "Name: Ada; Greeting: Paris; Roots: 1"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
async def test_a_signal_stops_the_server_gracefully_with_sessions_open(signum: int) -> None:
    server = await start(FIXTURE)
    async with client(server.url, "legacy") as c:
        await c.list_tools()
        assert await server.stop(signum) == 0
    assert server.process.stderr is not None
    rest = (await server.process.stderr.read()).decode()
    assert "Traceback" not in rest


@pytest.mark.parametrize("mode", ERAS)
async def test_a_request_in_flight_is_answered_after_ctrl_c(mode: str) -> None:
    server = await start(FIXTURE)
    stopping: list[int] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        if not stopping:
            server.process.send_signal(signal.SIGINT)
            stopping.append(1)

    result = None
    try:
        async with client(server.url, mode) as c:
            # Listed first: the client checks a result against the tool's output schema,
            # which it would otherwise fetch after the server stopped listening.
            await c.list_tools()
            result = await c.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
    except BaseExceptionGroup as group:
        # The legacy client ends its session with a DELETE when it closes, and the server
        # has stopped by then: that alone may fail.
        assert group.split(lambda e: type(e).__name__ == "ConnectError")[1] is None, group
    assert result is not None and result.is_error is not True and result.content[0].text != ""
    assert stopping == [1]
    assert await asyncio.wait_for(server.process.wait(), STOP_LIMIT) == 0


async def test_settings_given_to_the_server_choose_the_address(tmp_path: Path) -> None:
    # The official v1 spelling: host, port and path as FastMCP settings, then plain run().
    script = tmp_path / "server.py"
    script.write_text(
        "from ferrymcp.server.fastmcp import FastMCP\n"
        "mcp = FastMCP('settings', host='127.0.0.1', port=0, streamable_http_path='/api')\n"
        "@mcp.tool()\n"
        "def add(a: int, b: int) -> int:\n"
        "    return a + b\n"
        "mcp.run('streamable-http')\n"
    )
    server = await start([sys.executable, str(script)])
    try:
        assert server.url.endswith("/api")
        for mode in ERAS:
            async with mcp.Client(server.url, mode=mode) as c:
                assert (await c.call_tool("add", {"a": 2, "b": 40})).structured_content == {"result": 42}
    finally:
        assert await server.stop(signal.SIGINT) == 0


async def test_a_port_in_use_fails_with_a_message() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(PYTHON_EVERYTHING),
            "--transport",
            "http",
            "--port",
            str(port),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(process.communicate(), STOP_LIMIT)
    assert process.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in err.decode()


async def status_of(url: str, headers: dict[str, str]) -> int:
    """The status of a POST to the endpoint at `url` with exactly `headers` (Host and Origin
    as a rebinding page would send them) and a request the endpoint refuses after its Host and
    Origin checks (406, no Accept: the checks let it through)."""
    host, port = url.removeprefix("http://").split("/")[0].rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    lines = ["POST /mcp HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items()), "Content-Type: application/json"]
    writer.write(("\r\n".join([*lines, "Content-Length: 2", "Connection: close", "", "{}"])).encode())
    await writer.drain()
    status = int((await asyncio.wait_for(reader.readline(), START_LIMIT)).split()[1])
    writer.close()
    return status


@pytest.mark.parametrize(
    ("settings", "evil_host", "evil_origin"),
    [
        # Bound elsewhere than loopback: every Host name, Origins only when listed (core's defaults).
        ("host='0.0.0.0'", 406, 403),
        # Protection off (the official TransportSecuritySettings): every Host and Origin.
        ("transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)", 406, 406),
    ],
)
async def test_the_engine_derives_host_checks_from_the_settings(
    tmp_path: Path, settings: str, evil_host: int, evil_origin: int
) -> None:
    script = tmp_path / "server.py"
    script.write_text(
        "from ferrymcp.server.fastmcp import FastMCP\n"
        "from ferrymcp.server.transport_security import TransportSecuritySettings\n"
        f"mcp = FastMCP('hosts', port=0, {settings})\n"
        "mcp.run('streamable-http')\n"
    )
    server = await start([sys.executable, str(script)])
    try:
        port = server.url.rsplit(":", 1)[1].split("/")[0]
        url = f"http://127.0.0.1:{port}/mcp"
        assert await status_of(url, {"Host": f"127.0.0.1:{port}"}) == 406
        assert await status_of(url, {"Host": "evil.example.com"}) == evil_host
        assert await status_of(url, {"Host": f"127.0.0.1:{port}", "Origin": "http://evil.example.com"}) == evil_origin
    finally:
        assert await server.stop(signal.SIGINT) == 0


async def test_an_empty_allowed_hosts_list_answers_no_host(tmp_path: Path) -> None:
    """`allowed_hosts=[]` with protection on refuses every Host, as the official Python SDK
    does: an allow-list the author emptied must not become "allow all"."""
    script = tmp_path / "server.py"
    script.write_text(
        "from ferrymcp.server.fastmcp import FastMCP\n"
        "from ferrymcp.server.transport_security import TransportSecuritySettings\n"
        "security = TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=[])\n"
        "mcp = FastMCP('hosts', port=0, transport_security=security)\n"
        "mcp.run('streamable-http')\n"
    )
    server = await start([sys.executable, str(script)])
    try:
        port = server.url.rsplit(":", 1)[1].split("/")[0]
        url = f"http://127.0.0.1:{port}/mcp"
        assert await status_of(url, {"Host": f"127.0.0.1:{port}"}) == 421
        assert await status_of(url, {"Host": "evil.example.com"}) == 421
    finally:
        assert await server.stop(signal.SIGINT) == 0
