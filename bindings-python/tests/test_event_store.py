"""`event_store=` with an `EventStore` of the application's (the official interface:
`store_event`, `replay_events_after`) under `mcp.run("streamable-http")`, in a real process:
the engine keeps every event of a legacy session's resumable streams in that store, sends
each under the id the store returned (the priming event too, stored as `None`), and a
client coming back with `Last-Event-ID` gets what the store replays after it. Raw HTTP
shows the ids and the replay; the official client resumes a stream the server closed.

Needs the native module and `mcp`.
"""

from __future__ import annotations

import http.client
import json
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from test_http import start

SERVER = """
from ferrymcp.server.fastmcp import Context, FastMCP
from ferrymcp.server.streamable_http import EventCallback, EventMessage, EventStore


class Notebook(EventStore):
    def __init__(self) -> None:
        self.events = []

    async def store_event(self, stream_id, message):
        self.events.append((stream_id, message))
        return f"note-{len(self.events)}"

    async def replay_events_after(self, last_event_id, send_callback: EventCallback):
        if not last_event_id.startswith("note-"):
            return None
        at = int(last_event_id.removeprefix("note-"))
        if not 0 < at <= len(self.events):
            return None
        stream_id = self.events[at - 1][0]
        for index in range(at, len(self.events)):
            stream, message = self.events[index]
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, f"note-{index + 1}"))
        return stream_id


mcp = FastMCP("events", port=0, event_store=Notebook(), retry_interval=100)


@mcp.tool()
async def slow(ctx: Context) -> str:
    await ctx.report_progress(1, 2)
    await ctx.close_sse_stream()
    await ctx.report_progress(2, 2)
    return "done"


mcp.run("streamable-http")
"""
LEGACY = "2025-11-25"


def request(url: str, method: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    data = None if body is None else json.dumps(body)
    sent = {"accept": "application/json, text/event-stream", "content-type": "application/json", **(headers or {})}
    connection.request(method, parts.path, body=data, headers=sent)
    return connection.getresponse()


def events(response: Any) -> list[tuple[str | None, str]]:
    """The SSE events of a response, read to its end: `(id, data)`."""
    found: list[tuple[str | None, str]] = []
    event_id, data = None, []
    for raw in response:
        line = raw.decode().rstrip("\r\n")
        if not line:
            if event_id is not None or data:
                found.append((event_id, "\n".join(data)))
            event_id, data = None, []
        elif line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
    return found


async def test_the_application_event_store_names_keeps_and_replays_the_events(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = await start([sys.executable, str(script)])
    try:
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        opened = request(server.url, "POST", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
        session = {"mcp-session-id": opened.getheader("mcp-session-id"), "mcp-protocol-version": LEGACY}
        opened.read()
        request(server.url, "POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, session).read()

        call = {"name": "slow", "arguments": {}, "_meta": {"progressToken": "p"}}
        stream = request(
            server.url, "POST", {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}, session
        )
        assert stream.getheader("content-type") == "text/event-stream"
        first = events(stream)  # the server closes it after the first progress
        assert first[0] == ("note-1", ""), f"the priming event is the store's first: {first}"
        assert first[1][0] == "note-2" and json.loads(first[1][1])["params"]["progress"] == 1

        resumed = request(server.url, "GET", None, {**session, "last-event-id": "note-2"})
        assert resumed.status == 200
        rest = [(event_id, json.loads(data)) for event_id, data in events(resumed) if data]
        assert [event_id for event_id, _ in rest] == ["note-3", "note-4"], rest
        assert rest[0][1]["params"]["progress"] == 2
        assert rest[1][1]["result"]["content"][0]["text"] == "done"

        unknown = request(server.url, "GET", None, {**session, "last-event-id": "note-99"})
        assert unknown.status == 404

        async with mcp.Client(server.url, mode="legacy") as client:
            result = await client.call_tool("slow", {})
            assert result.content[0].text == "done", "the official client resumed the closed stream"
    finally:
        assert await server.stop(signal.SIGINT) == 0
