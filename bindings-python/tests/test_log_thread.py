"""Core's log lines (a refused `Host`, a refused `requestState`, ...) reach Python's
`logging` on their official logger names from ferrymcp's own logging thread, never from the
engine's (tokio) threads: a flood of refused requests, which anyone can send, is answered
and logged in full even while the application's log handler is slow, and the server keeps
answering everyone else. The server is a real process on 127.0.0.1; its handler holds every
line until the test releases it through a custom route.

Needs the native module and Starlette (the custom route).
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("starlette")

from serving import Served

# A bound that only keeps a stalled server from hanging the suite.
ANSWER_LIMIT = 30.0

SERVER = """
import logging
import threading

from starlette.responses import PlainTextResponse

from ferrymcp.server.fastmcp import FastMCP

released = threading.Event()


class Held(logging.Handler):
    \"\"\"Logs each line only once the test releases it: a handler slower than the flood.\"\"\"

    def emit(self, record):
        released.wait()
        print(f"log|{record.name}|{record.threadName}|{record.getMessage()}", flush=True)


class Printed(logging.Handler):
    def emit(self, record):
        print(f"log|{record.name}|{record.threadName}|{record.getMessage()}", flush=True)


security = logging.getLogger("ferrymcp.server.transport_security")
security.addHandler(Held())
security.propagate = False
logging.getLogger("ferrymcp").addHandler(Printed())
mcp = FastMCP("flooded", port=0)


@mcp.custom_route("/release", methods=["POST"])
async def release(request):
    released.set()
    return PlainTextResponse("released")


mcp.run("streamable-http")
"""


def request(path: str, host: str) -> bytes:
    head = [f"POST {path} HTTP/1.1", f"Host: {host}", "Content-Type: application/json", "Content-Length: 0"]
    return ("\r\n".join(head) + "\r\n\r\n").encode()


def answers(address: tuple[str, int], requests: list[bytes]) -> list[int]:
    """The statuses of `requests`, pipelined on one connection."""
    with socket.create_connection(address, timeout=ANSWER_LIMIT) as connection:
        connection.sendall(b"".join(requests))
        statuses: list[int] = []
        data = b""
        while len(statuses) < len(requests):
            chunk = connection.recv(65536)
            assert chunk, f"the server closed the connection after {len(statuses)} answers"
            data += chunk
            while b"\r\n\r\n" in data:
                head, data = data.split(b"\r\n\r\n", 1)
                statuses.append(int(head.split()[1]))
                fields = [line.split(b":", 1) for line in head.split(b"\r\n")[1:]]
                length = next((int(value) for name, value in fields if name.lower() == b"content-length"), 0)
                while len(data) < length:
                    more = connection.recv(65536)
                    assert more, "the server closed the connection mid-answer"
                    data += more
                data = data[length:]
        return statuses


def served(tmp_path: Path) -> tuple[Served, tuple[str, int]]:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = Served([sys.executable, str(script)], r"listening on (\S+)")
    host, port = server.url.removeprefix("http://").split("/")[0].rsplit(":", 1)
    return server, (host, int(port))


def stopped(server: Served) -> int:
    """SIGINT's exit code; a server that does not stop (its engine stalled) is killed."""
    try:
        return server.stop()
    except BaseException:
        server.process.kill()
        raise


def logged(output: str) -> list[tuple[str, str, str]]:
    lines = [line.strip().split("|", 3)[1:] for line in output.splitlines() if line.startswith("log|")]
    return [(name, thread, message) for name, thread, message in lines]


def test_a_flood_of_refusals_is_answered_and_logged_while_the_handler_is_slow(tmp_path: Path) -> None:
    server, address = served(tmp_path)
    try:
        own = f"{address[0]}:{address[1]}"
        evil = [request("/mcp", f"evil-{i}.example") for i in range(32)]
        # Each refused while the handler holds the first line: the engine's threads are free.
        assert answers(address, evil) == [421] * 32
        assert answers(address, [request("/mcp", own)]) == [406]
        assert answers(address, [request("/release", own)]) == [200]
    finally:
        assert stopped(server) == 0
    lines = logged(server.output())
    assert sorted((name, message) for name, _, message in lines) == sorted(
        ("ferrymcp.server.transport_security", f"Invalid Host header: evil-{i}.example") for i in range(32)
    )
    # Logged by ferrymcp's logging thread (or, for lines still queued at exit, the exiting
    # thread), never by one of the engine's threads.
    assert {thread for _, thread, _ in lines} <= {"ferrymcp-logging", "MainThread"}


def test_lines_beyond_the_queue_are_counted_and_said_once(tmp_path: Path) -> None:
    """More refusals than the queue holds while the handler is stuck: every refusal is still
    answered, the lines that fit are logged, and the rest are counted in one warning on
    logger `ferrymcp` (not lost without a word)."""
    # The logging thread takes at most one queue-full before the handler stops it, and the
    # queue holds one more: beyond twice the queue's 4096, lines must be dropped.
    flood = 9000
    server, address = served(tmp_path)
    try:
        own = f"{address[0]}:{address[1]}"
        assert answers(address, [request("/mcp", f"evil-{i}.example") for i in range(flood)]) == [421] * flood
        assert answers(address, [request("/release", own)]) == [200]
    finally:
        assert stopped(server) == 0
    lines = logged(server.output())
    refusals = [line for line in lines if line[0] == "ferrymcp.server.transport_security"]
    warnings = [line for line in lines if line[0] == "ferrymcp"]
    assert len(warnings) == 1, warnings
    dropped = int(warnings[0][2].split()[0])
    assert dropped > 0 and len(refusals) + dropped == flood
    assert warnings[0][2] == (
        f"{dropped} log lines of ferrymcp were dropped: more arrived than the logging thread could keep up with"
    )
    assert {thread for _, thread, _ in lines} <= {"ferrymcp-logging", "MainThread"}


async def test_a_refusal_is_logged_before_the_asgi_app_sends_its_answer(caplog: pytest.LogCaptureFixture) -> None:
    """In process, as an ASGI server (or `httpx.ASGITransport`) drives the app: the line
    core logged while refusing a request is on its logger when the answer starts, as the
    official server logs it inside the request, so a test or a middleware that looks right
    after the answer finds it. Before, the logging thread wrote it whenever it woke."""
    from ferrymcp.server.mcpserver import MCPServer

    app = MCPServer("logged").streamable_http_app()
    seen: list[bool] = []
    # Threads that want the GIL all the time, as a loaded process has: the logging thread
    # then often wakes after the answer is sent, which is when the app must not rely on it.
    stop = threading.Event()
    busy = [threading.Thread(target=spin, args=(stop,), daemon=True) for _ in range(4)]
    for thread in busy:
        thread.start()
    try:
        async with app.router.lifespan_context(app):
            for i in range(100):
                await refuse(app, i, caplog, seen)
    finally:
        stop.set()
        for thread in busy:
            thread.join()
    assert seen == [True] * 100


def spin(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1000))


async def refuse(app: Any, i: int, caplog: pytest.LogCaptureFixture, seen: list[bool]) -> None:
    """One request with a Host the app refuses; `seen` gets whether its line was logged
    when the answer started."""
    refused = f"Invalid Host header: host-{i}.example"
    received = False

    async def receive() -> dict[str, object]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": b"{}", "more_body": False}
        await asyncio.Event().wait()  # the client stays until the app has answered
        return {"type": "http.disconnect"}

    async def send(message: dict[str, object], refused: str = refused) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 421
            seen.append(refused in caplog.messages)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "headers": [
            (b"host", f"host-{i}.example".encode()),
            (b"content-type", b"application/json"),
            (b"accept", b"application/json, text/event-stream"),
        ],
    }
    with caplog.at_level("WARNING", logger="ferrymcp.server.transport_security"):
        await app(scope, receive, send)
