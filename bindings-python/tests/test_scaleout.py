"""The official Python SDK's client through a real haproxy doing plain round robin in front
of three replicas of a ferrymcp server, with sessions, events and the replicas' bus in a
real Redis: the client's requests land on every replica in turn, and it cannot tell. The
replicas are the Rust fixture (`--redis`) or the Python one (an `MCPServer` given
`event_store=RedisStore(url)`). Both eras; in the legacy one the server asks the client
(sampling, elicitation) and the client's answers are POSTed to whichever replica the
balancer picks."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PYTHON_EVERYTHING
from mcp import Client, types
from serving import RUST_EVERYTHING_BIN

REPLICAS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def program(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin")
    if found is None:
        assert "CI" not in os.environ, f"CI must install {name}: run scripts/test.sh"
        pytest.skip(f"{name} is not installed (scripts/test.sh installs it)")
    return found


def started(command: list[str], port: int) -> subprocess.Popen[bytes]:
    """Starts `command` and waits until `port` accepts connections."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{command[0]} exited before listening"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError(f"{command[0]} did not listen on {port}")


FIXTURES = {
    "rust": [str(RUST_EVERYTHING_BIN)],
    "python": [sys.executable, str(PYTHON_EVERYTHING)],
}


@pytest.fixture(scope="module", params=sorted(FIXTURES))
def balancer(request: pytest.FixtureRequest) -> Iterator[str]:
    fixture = FIXTURES[request.param]
    if not Path(fixture[-1]).exists():
        pytest.skip(f"{fixture[-1]} is not built")
    redis_server, haproxy = program("redis-server"), program("haproxy")
    processes: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            redis_port = free_port()
            redis_command = [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""]
            processes.append(started([*redis_command, "--appendonly", "no"], redis_port))
            servers = ""
            for i in range(REPLICAS):
                port = free_port()
                replica = [*fixture, "--transport", "http", "--port", str(port)]
                replica += [
                    "--redis",
                    f"redis://127.0.0.1:{redis_port}",
                    "--state-key",
                    "a key shared by the replicas, 32+ bytes",
                ]
                processes.append(started(replica, port))
                servers += f"  server r{i} 127.0.0.1:{port}\n"
            port = free_port()
            config = Path(tmp) / "haproxy.cfg"
            config.write_text(
                "defaults\n  mode http\n  timeout connect 5s\n  timeout client 60s\n  timeout server 60s\n"
                f"frontend mcp\n  bind 127.0.0.1:{port}\n  default_backend replicas\n"
                f"backend replicas\n  balance roundrobin\n{servers}"
            )
            processes.append(started([haproxy, "-db", "-f", str(config)], port))
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            for process in reversed(processes):
                process.kill()
                process.wait()


async def sampling(context, params):
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="Paris"), model="m", stop_reason="endTurn"
    )


async def elicitation(context, params):
    return types.ElicitResult(action="accept", content={"response": "yes", "name": "Ada"})


MODES = ["legacy", "2026-07-28"]


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_the_official_client_works_through_the_balancer(balancer, mode, request):
    async with Client(balancer, mode=mode, sampling_callback=sampling, elicitation_callback=elicitation) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        names = [t.name for t in (await c.list_tools()).tools]
        assert "test_simple_text" in names
        # Enough calls for every replica to serve several of them.
        for _ in range(2 * REPLICAS):
            result = await c.call_tool("test_simple_text", {})
            assert result.content[0].text == "This is a simple text response for testing."
        text = await c.read_resource("test://static-text")
        assert text.contents[0].text == "This is the content of the static text resource."
        sampled = await c.call_tool("test_sampling", {"prompt": "capital of France?"})
        elicited = await c.call_tool("test_elicitation", {"message": "ok?"})
        if "python" in request.node.callspec.id and mode == "2026-07-28":
            # The Python fixture's session requests are the official ones: no back-channel
            # at 2026-07-28 (the rounds there are the multi-round test's, below).
            assert "no back-channel" in sampled.content[0].text
            assert "no back-channel" in elicited.content[0].text
        else:
            assert "Paris" in sampled.content[0].text
            assert "action=accept" in elicited.content[0].text
        logged = await c.call_tool("test_tool_with_logging", {})
        assert logged.content[0].text == "Tool with logging executed successfully"


@pytest.mark.asyncio
async def test_the_official_client_runs_multi_round_tools_through_the_balancer(balancer):
    async with Client(balancer, mode="2026-07-28", elicitation_callback=elicitation) as c:
        for _ in range(REPLICAS):
            result = await c.call_tool("test_input_required_result_elicitation", {})
            assert result.content[0].text == "Hello, Ada!"


def test_redis_store_checks_its_options_and_what_is_no_event_store_is_refused() -> None:
    from ferrymcp import FastMCP, MCPServer, RedisStore

    with pytest.raises(ValueError, match="invalid Redis URL"):
        RedisStore("not a url")
    with pytest.raises(ValueError, match="prefix"):
        RedisStore("redis://127.0.0.1", prefix="")
    with pytest.raises(ValueError, match="timeout"):
        RedisStore("redis://127.0.0.1", timeout=0)
    assert repr(RedisStore("redis://:secret@127.0.0.1:6379")) == 'RedisStore("redis://***@127.0.0.1:6379")'
    server = FastMCP("s", event_store=RedisStore("redis://127.0.0.1"))
    assert isinstance(server.settings.event_store, RedisStore)
    with pytest.raises(TypeError, match="event_store=.*RedisStore"):
        FastMCP("s", event_store=object())
    with pytest.raises(TypeError, match="event_store=.*RedisStore"):
        MCPServer("s").streamable_http_app(event_store=object())
