"""`stateless_http=True` and `json_response=True` on ferrymcp, served by the engine: a
FastMCP-style server run with `run("streamable-http")` as a real process, the official
client against it in both eras, and raw POSTs showing what goes over the wire: no
`Mcp-Session-Id`, requests answered without a prior initialize, GET refused with 405, and
(JSON mode) one `application/json` body even for a tool that reports progress first.
"""

from __future__ import annotations

import json
import signal
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from test_http import ERAS, start

SERVER = (
    "import sys\n"
    "from ferrymcp.server.fastmcp import Context, FastMCP\n"
    "mcp = FastMCP('modes', port=0, stateless_http=True, json_response=sys.argv[1] == 'json')\n"
    "@mcp.tool()\n"
    "async def count(n: int, ctx: Context) -> str:\n"
    "    for step in range(n):\n"
    "        await ctx.report_progress(step + 1, n)\n"
    "    return f'counted {n}'\n"
    "@mcp.tool()\n"
    "async def can_send(ctx: Context) -> str:\n"
    "    return str(ctx.session.can_send_request)\n"
    "from pydantic import BaseModel\n"
    "class Quantity(BaseModel):\n"
    "    copies: int\n"
    "@mcp.tool()\n"
    "async def ask(ctx: Context) -> str:\n"
    "    return (await ctx.elicit('How many copies?', Quantity)).action\n"
    "mcp.run('streamable-http')\n"
)
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
}


def post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=HEADERS, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"accept": "text/event-stream"}), timeout=30):
            return 200
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("mode", ["sse", "json"])
async def test_stateless_endpoint(tmp_path: Path, mode: str) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = await start([sys.executable, str(script), mode])
    try:
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        status, headers, _ = post(server.url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
        assert status == 200 and "mcp-session-id" not in headers
        call = {"name": "count", "arguments": {"n": 3}, "_meta": {"progressToken": "p"}}
        status, headers, body = post(server.url, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        assert status == 200
        if mode == "json":
            assert headers["content-type"].startswith("application/json")
            assert json.loads(body)["result"]["content"][0]["text"] == "counted 3"
        else:
            assert headers["content-type"].startswith("text/event-stream")
            assert body.count(b"notifications/progress") == 3 and b"counted 3" in body
        assert get_status(server.url) == 405
        for era in ERAS:
            async with mcp.Client(server.url, mode=era) as client:
                assert (await client.call_tool("count", {"n": 2})).content[0].text == "counted 2"
                # No way back for a server-to-client request in either mode (stateless, as the
                # official transport stamps it; in JSON mode nothing but the answer goes back).
                assert (await client.call_tool("can_send", {})).content[0].text == "False"
        # A legacy client that declared elicitation still gets no request: a stateless
        # request carries no capabilities and has no way back, and the refusal says the
        # latter (the official SDK's NoBackChannelError). `FastMCP` is 1.x's API, whose
        # tools answer a JSON-RPC error they raise as a tool error (core's `python_v1`).
        async with mcp.Client(server.url, mode="legacy", elicitation_callback=accept_two) as client:
            refused = await client.call_tool("ask", {})
        assert refused.is_error
        assert refused.content[0].text == (
            "Error executing tool ask: Cannot send 'elicitation/create': this transport context"
            " has no back-channel for server-initiated requests."
        )
    finally:
        assert await server.stop(signal.SIGINT) == 0


async def accept_two(context: Any, params: Any) -> Any:
    return mcp.types.ElicitResult(action="accept", content={"copies": 2})
