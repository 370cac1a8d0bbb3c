"""`create_mcp_http_client` (`mcp.shared._httpx_utils`) makes the client the installed
official SDK makes: 2.x's `httpx2.AsyncClient` or, run where `mcp<2` is installed, 1.x's
`httpx.AsyncClient`, with the same timeouts, redirects (not followed), headers and auth,
answered alike by a real server."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

official = pytest.importorskip("mcp.shared._httpx_utils")
library = getattr(official, "httpx2", None) or pytest.importorskip("httpx")


@pytest.fixture
def redirecting() -> Iterator[str]:
    """A local server that redirects `/` to `/there`, which echoes the request's headers."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/":
                self.send_response(302)
                self.send_header("Location", "/there")
                self.end_headers()
                return
            body = f"{self.headers.get('x-app')} {self.headers.get('authorization')}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def settings(client: Any) -> tuple[object, ...]:
    return type(client), client.timeout, client.follow_redirects, dict(client.headers), type(client.auth)


async def test_the_client_is_the_official_one(redirecting: str) -> None:
    from ferrymcp.shared import _httpx_utils as ours

    assert (ours.MCP_DEFAULT_TIMEOUT, ours.MCP_DEFAULT_SSE_READ_TIMEOUT) == (
        official.MCP_DEFAULT_TIMEOUT,
        official.MCP_DEFAULT_SSE_READ_TIMEOUT,
    )
    auth = library.BasicAuth("ada", "pw")
    for args in ((), ({"x-app": "1"},), ({"x-app": "1"}, library.Timeout(5.0), auth)):
        mine, theirs = ours.create_mcp_http_client(*args), official.create_mcp_http_client(*args)
        assert settings(mine) == settings(theirs)
        async with mine, theirs:
            answers = [(await client.get(redirecting)) for client in (mine, theirs)]
        assert [(a.status_code, a.text) for a in answers] == [(answers[1].status_code, answers[1].text)] * 2
        assert type(mine).__module__.split(".")[0] == library.__name__
        assert answers[0].status_code == 302
        async with ours.create_mcp_http_client(*args) as client:
            there = await client.get(redirecting + "there")
        assert there.text == f"{args[0]['x-app'] if args else None} {'Basic YWRhOnB3' if len(args) == 3 else None}"
