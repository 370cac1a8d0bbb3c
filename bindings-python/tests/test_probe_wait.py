"""The era probe waits as long as the official Python client's (10 s, its
`DISCOVER_TIMEOUT_SECONDS`), a default held by core (`ClientOptions::python()`), not by the
binding. The server here answers `server/discover` only 7 s after it arrives (a modern
server slow to start) and `initialize` as a 2025 server would: a client that waits 10 s
speaks 2026-07-28 to it, one that gives up sooner falls back and speaks 2025. Before, the
binding took core's 5 s default for Rust callers and spoke 2025 where the official client
speaks 2026-07-28. The official client runs against the same server.

Needs the native module and the official SDK.
"""

import sys

import pytest

pytest.importorskip("ferrymcp._native")

from mcp.client.client import Client as OfficialClient
from mcp.client.stdio import StdioServerParameters as OfficialParameters

from ferrymcp import Client, StdioServerParameters

SLOW_DISCOVER = r"""
import json, sys, time
MODERN = "2026-07-28"
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "server/discover":
        time.sleep(7)  # slower than 5 s, quicker than 10 s
        send({"jsonrpc": "2.0", "id": id, "result": {"supportedVersions": [MODERN], "capabilities": {"tools": {}},
              "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "slow", "version": "1"}}}})
    elif method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
              "serverInfo": {"name": "slow", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": []}})
"""


async def test_the_probe_waits_as_long_as_the_official_python_clients() -> None:
    async with OfficialClient(OfficialParameters(command=sys.executable, args=["-c", SLOW_DISCOVER])) as official:
        official_version = official.protocol_version
    async with Client(StdioServerParameters(command=sys.executable, args=["-c", SLOW_DISCOVER])) as client:
        assert client.protocol_version == official_version == "2026-07-28"
        assert (await client.list_tools()).tools == []
