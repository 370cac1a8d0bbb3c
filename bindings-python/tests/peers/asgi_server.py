"""A ferrymcp server as an ASGI app, for uvicorn (test_asgi.py): `standalone` is
`mcp.streamable_http_app()` as is; `mounted` is that app inside a Starlette app at `/api`,
run by the host app's lifespan, the official SDK's documented pattern. Both are factories
(`uvicorn --factory`), each building its own server.

`hold` reports progress and then waits; when it is cancelled it writes the file named by
`FERRYMCP_CANCELLED` (the test's proof that a client's disconnect reached the tool).
"""

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from ferrymcp import Context
from ferrymcp.server import MCPServer
from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount


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
        result = await ctx.elicit("Your name?", Answer)
        return f"hello {result.data.name}" if result.action == "accept" else result.action

    @mcp.tool()
    async def hold(ctx: Context) -> str:
        await ctx.report_progress(1, 2, "holding")
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            Path(os.environ["FERRYMCP_CANCELLED"]).write_text("cancelled")
            raise
        return "held"

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return mcp


def standalone() -> object:
    return build().streamable_http_app()


def mounted() -> Starlette:
    mcp = build()
    app = mcp.streamable_http_app()

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    return Starlette(routes=[Mount("/api", app=app)], lifespan=lifespan)
