"""`@mcp.custom_route` under `mcp.run("streamable-http")`: the engine's own HTTP server hands
every path its endpoint does not own to the server's Starlette routes (a login page of an
authorization flow, a health check, as the official `simple-auth` example registers), in a
real process on 127.0.0.1, with the official client calling a tool at the endpoint beside
them. Path parameters, query strings, bodies, status codes and repeated headers go through
as Starlette makes them; a route matching the path but not the method is 405, an unknown
path 404 and a failing route 500.

Needs the native module, `mcp` and Starlette.
"""

from __future__ import annotations

import json
import signal
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("starlette")
mcp = pytest.importorskip("mcp")

from test_http import ERAS, start

SERVER = """
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response

from ferrymcp.server.fastmcp import FastMCP

mcp = FastMCP("routes", port=0)


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


@mcp.custom_route("/login", methods=["GET"])
async def login(request: Request) -> Response:
    state = request.query_params["state"]
    return HTMLResponse(f"<form action='/login/callback?state={state}' method='post'></form>")


@mcp.custom_route("/login/callback", methods=["POST"])
async def callback(request: Request) -> Response:
    body = (await request.body()).decode()
    response = RedirectResponse(f"http://client.example/done?state={request.query_params['state']}&{body}", 302)
    response.set_cookie("session", "s1")
    response.set_cookie("theme", "dark")
    return response


@mcp.custom_route("/items/{item_id:int}", methods=["GET", "PUT"])
async def item(request: Request) -> Response:
    return JSONResponse(
        {"id": request.path_params["item_id"], "method": request.method, "agent": request.headers.get("user-agent")}
    )


@mcp.custom_route("/broken", methods=["GET"])
async def broken(request: Request) -> Response:
    raise RuntimeError("the route broke")


@mcp.custom_route("/health", methods=["GET"])
def health(request: Request) -> Response:
    return PlainTextResponse("ok")


mcp.run("streamable-http")
"""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def fetch(url: str, method: str = "GET", body: bytes | None = None) -> tuple[int, list[tuple[str, str]], bytes]:
    request = urllib.request.Request(url, data=body, method=method, headers={"user-agent": "route-test"})
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, list(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        return error.code, list(error.headers.items()), error.read()


async def test_custom_routes_are_served_beside_the_endpoint(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = await start([sys.executable, str(script)])
    root = server.url.removesuffix("/mcp")
    try:
        status, headers, body = fetch(f"{root}/login?state=xyz")
        assert status == 200
        assert ("content-type", "text/html; charset=utf-8") in [(k.lower(), v) for k, v in headers]
        assert body == b"<form action='/login/callback?state=xyz' method='post'></form>"

        status, headers, _ = fetch(f"{root}/login/callback?state=xyz", "POST", b"user=ada")
        assert status == 302
        lowered = [(k.lower(), v) for k, v in headers]
        assert ("location", "http://client.example/done?state=xyz&user=ada") in lowered
        cookies = [v.split(";")[0] for k, v in lowered if k == "set-cookie"]
        assert cookies == ["session=s1", "theme=dark"]

        status, _, body = fetch(f"{root}/items/7", "PUT")
        assert status == 200
        assert json.loads(body) == {"id": 7, "method": "PUT", "agent": "route-test"}
        assert fetch(f"{root}/health")[2] == b"ok", "a plain (sync) function route"

        assert fetch(f"{root}/login", "DELETE")[0] == 405, "the path is a route's, the method is not"
        assert fetch(f"{root}/items/seven")[0] == 404, "the path parameter's convertor refuses it"
        assert fetch(f"{root}/nowhere")[0] == 404
        assert fetch(f"{root}/broken")[0] == 500

        for era in ERAS:
            async with mcp.Client(server.url, mode=era) as client:
                assert (await client.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
    finally:
        assert await server.stop(signal.SIGINT) == 0
