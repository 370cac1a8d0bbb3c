"""Cancellation over stdio, in both eras: `notifications/cancelled` cancels the asyncio
task of a running async tool (the coroutine sees `CancelledError`) and flips
`ctx.is_cancelled()` for a sync one; nothing is sent for the cancelled request and the
connection goes on. A ferrymcp `Client` call that times out (per call, or by the
client's default) raises `RequestTimeout` and cancels the request on the server.

The busy tools wait ten minutes unless cancelled, so a test that passes saw the cancel.
"""

import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from raw_stdio import LEGACY, MODERN, PATIENCE, RawServer, modern_meta

from ferrymcp import Client, RequestTimeout
from ferrymcp.types import TextContent

BUSY = Path(__file__).resolve().parent / "process" / "busy_server.py"


def command(marker: Path) -> list[str]:
    return [sys.executable, str(BUSY), str(marker)]


def wait_for(path: Path, alive: Any) -> None:
    """Polls for `path`, which a busy tool creates, while `alive()` holds."""
    deadline = time.monotonic() + PATIENCE
    while not path.exists():
        assert alive(), f"the server ended before {path.name} appeared"
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


@pytest.mark.parametrize("era", [LEGACY, MODERN])
@pytest.mark.parametrize("tool", ["nap", "poll"])
def test_a_cancelled_request_stops_its_tool(tmp_path: Path, era: str, tool: str) -> None:
    marker = tmp_path / "running"
    server = RawServer(command(marker), era)
    alive = lambda: server.process.poll() is None  # noqa: E731
    extra: dict[str, Any] = {}
    if era == LEGACY:
        server.initialize()
    else:
        extra = {"_meta": modern_meta()}
    busy = {"jsonrpc": "2.0", "id": "busy", "method": "tools/call", "params": {"name": tool, "arguments": {}, **extra}}
    server.send(busy, "CallToolRequest")
    wait_for(marker, alive)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "busy", "reason": "user"}}
    server.send(cancel, "CancelledNotification")
    wait_for(marker.with_suffix(".cancelled"), alive)
    echo = {"name": "echo", "arguments": {"text": "still here"}, **extra}
    answer = server.request("after", "CallToolRequest", "tools/call", echo)
    assert answer["result"]["content"] == [{"type": "text", "text": "still here"}]
    assert server.close() == 0
    assert [m for m in server.leftover if m.get("id") == "busy"] == []


async def wait_for_async(path: Path) -> None:
    deadline = time.monotonic() + PATIENCE
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_a_call_that_times_out_is_cancelled_on_the_server(tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "running"
    async with Client(command(marker), mode=mode, read_timeout_seconds=timedelta(seconds=PATIENCE)) as client:
        with pytest.raises(RequestTimeout):
            await client.call_tool("nap", {}, read_timeout_seconds=0.3)
        await wait_for_async(marker.with_suffix(".cancelled"))
        assert (await client.call_tool("echo", {"text": "x"})).content == [TextContent(text="x")]


async def test_the_client_default_timeout_and_a_per_call_override(tmp_path: Path) -> None:
    marker = tmp_path / "running"
    async with Client(command(marker), mode="legacy", read_timeout_seconds=0.3) as client:
        with pytest.raises(RequestTimeout):
            await client.call_tool("poll", {})
        await wait_for_async(marker.with_suffix(".cancelled"))
        patient = await client.call_tool("echo", {"text": "y"}, read_timeout_seconds=timedelta(seconds=PATIENCE))
        assert patient.content == [TextContent(text="y")]
