"""A ferrymcp server as an ASGI app, for uvicorn (test_asgi.py, test_http_client.py).

Factories for `uvicorn --factory`, each building its own server: `standalone` is
`mcp.streamable_http_app()` as is; `mounted` is that app inside a Starlette app at `/api`
(`mounted_at_root` at `/`), run by the host app's lifespan (the official SDK's documented
pattern); `guarded` takes `transport_security` and a 4 KiB body limit (`logged`: the
same, its log naming each line's logger); `authenticated` answers 401 unless the request
carries the bearer token `secret` and the header `X-Api-Key: k` (what a client's `headers`
must send). `polling` (an `MCPServer`) and `polling_lowlevel` (the low-level `Server`) serve
`long_operation`, which closes its own SSE stream mid-call (SEP-1699: progress before,
progress after, then its answer) and reports whether it could, and `close_standalone`,
which closes the session's standalone GET stream.

`hold` writes "started" to the file it is given, reports progress and waits; cancelled, it
writes "cancelled" there (the tests' proof that a disconnect, a cancel or a timeout
reached the tool).
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount
from starlette.types import Receive, Scope, Send

from ferrymcp import Context
from ferrymcp.server import MCPServer
from ferrymcp.server.transport_security import TransportSecuritySettings


class Answer(BaseModel):
    name: str


def build() -> MCPServer:
    mcp = MCPServer("asgi-peer", version="1.0.0")

    @mcp.tool()
    def add(a: int, b: int) -> int:
        """Adds two numbers."""
        return a + b

    @mcp.tool()
    async def count(ctx: Context, steps: int = 3) -> str:
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step}")
        return f"counted {steps}"

    @mcp.tool()
    async def ask(ctx: Context) -> str:
        if ctx.protocol_version == "2026-07-28":  # the official `elicit` has no back-channel there: a round
            schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
            answer = await ctx.request_input("elicitation/create", {"message": "Your name?", "requestedSchema": schema})
            return f"hello {answer['content']['name']}" if answer["action"] == "accept" else str(answer["action"])
        result = await ctx.elicit("Your name?", Answer)
        return f"hello {result.data.name}" if result.action == "accept" else result.action

    @mcp.tool()
    async def hold(ctx: Context, marker: str) -> str:
        Path(marker).write_text("started")
        await ctx.report_progress(1, 2, "holding")
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            Path(marker).write_text("cancelled")
            raise
        return "held"

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return mcp


def standalone() -> object:
    return build().streamable_http_app()


def mounted(prefix: str = "/api") -> Starlette:
    mcp = build()
    app = mcp.streamable_http_app()

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    return Starlette(routes=[Mount(prefix, app=app)], lifespan=lifespan)


def mounted_at_root() -> Starlette:
    """`app.mount("/", mcp.streamable_http_app())`, as the official documentation writes it."""
    return mounted("/")


def guarded() -> object:
    security = TransportSecuritySettings(allowed_hosts=["127.0.0.1:*"], allowed_origins=["https://app.example.com"])
    return build().streamable_http_app(transport_security=security, max_request_body_size=4096)


def logged() -> object:
    """`guarded`, with a log that names each line's logger (root at WARNING, as Python's)."""
    logging.basicConfig(format="log|%(name)s|%(levelname)s|%(message)s")
    return guarded()


def authenticated() -> object:
    app = build().streamable_http_app()

    async def checked(scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", []))
        if scope["type"] == "http" and (
            headers.get(b"authorization") != b"Bearer secret" or headers.get(b"x-api-key") != b"k"
        ):
            await PlainTextResponse("unauthorized", status_code=401)(scope, receive, send)
            return
        await app(scope, receive, send)

    return checked


def polling() -> object:
    mcp = MCPServer("polling")

    @mcp.tool()
    async def long_operation(ctx: Context) -> str:
        await ctx.report_progress(0.5, 1.0, "before-close")
        await ctx.close_sse_stream()
        await ctx.report_progress(1.0, 1.0, "after-close")
        return "resumed"

    @mcp.tool()
    async def close_standalone(ctx: Context) -> str:
        await ctx.close_standalone_sse_stream()
        return "closed"

    return mcp.streamable_http_app()


def polling_lowlevel() -> object:
    from typing import Any

    from ferrymcp import types
    from ferrymcp.server.context import ServerRequestContext
    from ferrymcp.server.lowlevel import Server

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "close_standalone":
            assert ctx.close_standalone_sse_stream is not None
            await ctx.close_standalone_sse_stream()
            return types.CallToolResult(content=[types.TextContent(type="text", text="closed")])
        await ctx.session.report_progress(0.5, total=1.0, message="before-close")
        closable = ctx.close_sse_stream is not None
        if ctx.close_sse_stream is not None:
            await ctx.close_sse_stream()
        await ctx.session.report_progress(1.0, total=1.0, message="after-close")
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="resumed" if closable else "not closable")]
        )

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        empty = {"type": "object", "properties": {}}
        names = ["long_operation", "close_standalone"]
        return types.ListToolsResult(tools=[types.Tool(name=name, input_schema=empty) for name in names])

    return Server("polling", on_list_tools=list_tools, on_call_tool=call_tool).streamable_http_app()
