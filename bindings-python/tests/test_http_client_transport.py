"""2.x's `streamable_http_client(url, http_client=...)` with an httpx client that has its
own transport: every request of the engine goes through that client (see
`ferrymcp.client._exchange`), so an `httpx2.ASGITransport` reaches an app in this process
with no socket, as with the official client.

The servers are real: the official SDK's own `MCPServer.streamable_http_app()` (PyPI `mcp`)
and ferrymcp's, each served by `ASGITransport` and entered with its session manager, at
2026-07-28 .
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")
pytest.importorskip("starlette")

from ferrymcp import McpError  # noqa: E402
from ferrymcp.client import Client  # noqa: E402
from ferrymcp.client.streamable_http import streamable_http_client  # noqa: E402
from ferrymcp.server import MCPServer  # noqa: E402
from ferrymcp.server.mcpserver import Context  # noqa: E402

# The legacy era opens its standalone GET stream before it goes on, and an httpx
# `ASGITransport` hands over no response head until the app has finished the response: a
# legacy connection cannot be made through one (see the README).
ERAS = ["2026-07-28"]
URL = "http://127.0.0.1:8000/mcp"


def official_server() -> Any:
    from mcp.server import MCPServer as OfficialMCPServer

    server = OfficialMCPServer("official")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    return server


def ferrymcp_server() -> MCPServer[Any]:
    server = MCPServer("ferrymcp")

    @server.tool()
    async def count(n: int, ctx: Context) -> str:
        """Counts to n, reporting progress."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n)
        return f"counted to {n}"

    return server


class Recording(httpx2.ASGITransport):
    """An `ASGITransport` that records the method of every request it carries."""

    def __init__(self, app: Any) -> None:
        super().__init__(app=app)
        self.methods: list[str] = []
        self.tenants: set[str | None] = set()

    async def handle_async_request(self, request: Any) -> Any:
        self.methods.append(request.method)
        self.tenants.add(request.headers.get("x-tenant"))
        return await super().handle_async_request(request)


@pytest.mark.parametrize("mode", ERAS)
async def test_the_official_app_behind_an_asgi_transport(mode: str) -> None:
    server = official_server()
    transport = Recording(server.streamable_http_app())
    async with server.session_manager.run():
        async with httpx2.AsyncClient(transport=transport) as http:
            async with Client(streamable_http_client(URL, http_client=http), mode=mode) as client:
                result = await client.call_tool("add", {"a": 2, "b": 3})
                assert result.structured_content == {"result": 5}
    assert transport.methods.count("POST") >= 2


@pytest.mark.parametrize("mode", ERAS)
async def test_ferrymcps_app_with_the_clients_headers_and_base_url(mode: str) -> None:
    server = ferrymcp_server()
    transport = Recording(server.streamable_http_app())
    async with server.session_manager.run():
        http = httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000", headers={"X-Tenant": "acme"})
        async with http, Client(streamable_http_client("/mcp", http_client=http), mode=mode) as client:
            counted = await client.call_tool("count", {"n": 3})
            assert counted.content[0].text == "counted to 3"  # type: ignore[union-attr]
    # The client's own headers went with every request.
    assert transport.tenants == {"acme"}


async def test_a_refusal_from_the_app_fails_the_connection() -> None:
    """The default app answers a non-local Host with 421; the client's connection fails
    saying so instead of hanging."""
    server = ferrymcp_server()
    transport = httpx2.ASGITransport(app=server.streamable_http_app())
    async with server.session_manager.run(), httpx2.AsyncClient(transport=transport) as http:
        with pytest.raises(McpError, match="421"):
            async with Client(streamable_http_client("http://mcp.example.com/mcp", http_client=http)):
                pass


async def test_a_transport_that_fails_fails_the_connection() -> None:
    class Broken(httpx2.AsyncBaseTransport):
        async def handle_async_request(self, request: Any) -> Any:
            raise httpx2.ConnectError("no route to the test host", request=request)

    async with httpx2.AsyncClient(transport=Broken()) as http:
        with pytest.raises(Exception, match="no route to the test host"):
            async with Client(streamable_http_client(URL, http_client=http)):
                pass


async def test_the_official_client_agrees() -> None:
    """The same official app and ASGI transport under the official client: the reference."""
    server = official_server()
    transport = httpx2.ASGITransport(app=server.streamable_http_app())
    async with server.session_manager.run(), httpx2.AsyncClient(transport=transport) as http:
        async with mcp.Client(mcp.client.streamable_http.streamable_http_client(URL, http_client=http)) as client:
            result = await client.call_tool("add", {"a": 2, "b": 3})
    assert json.loads(json.dumps(result.structured_content)) == {"result": 5}
