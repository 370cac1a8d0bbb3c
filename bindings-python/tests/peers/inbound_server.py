"""A dual-era HTTP server written against the official SDK's API that routes on
`mcp.shared.inbound.classify_inbound_request`, as the official `legacy_routing` story
composes it: a request the ladder refuses at any rung but the first (no envelope: a
legacy request) is answered with the rejection and `ERROR_CODE_HTTP_STATUS`'s status
before the app sees it. `inbound_server.py <port> <sdk> [bare]`, `sdk` `official` (the
`mcp` package) or `ferrymcp` (the same code on ferrymcp's modules); `bare` serves the app
without the guard, so the server's own transport answers every request.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import uvicorn

if sys.argv[2] == "official":
    from mcp.server.mcpserver import MCPServer
    from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS, InboundLadderRejection, classify_inbound_request
    from mcp.types import INVALID_PARAMS
else:
    from ferrymcp.server.mcpserver import MCPServer  # type: ignore[assignment]
    from ferrymcp.shared.inbound import (  # type: ignore[assignment]
        ERROR_CODE_HTTP_STATUS,
        InboundLadderRejection,
        classify_inbound_request,
    )
    from ferrymcp.types import INVALID_PARAMS  # type: ignore[assignment]

mcp = MCPServer("inbound")


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text."""
    return text


def guarded(app: Any) -> Any:
    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        body = json.loads(raw)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        verdict = classify_inbound_request(body, headers=headers) if isinstance(body, dict) else None
        if isinstance(verdict, InboundLadderRejection) and verdict.code != INVALID_PARAMS:
            error: dict[str, Any] = {"code": verdict.code, "message": verdict.message}
            if verdict.data is not None:
                error["data"] = verdict.data
            payload = json.dumps({"jsonrpc": "2.0", "id": body.get("id"), "error": error}).encode()
            status = ERROR_CODE_HTTP_STATUS.get(verdict.code, 200)
            await send(
                {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
            )
            await send({"type": "http.response.body", "body": payload})
            return None
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    return asgi


app = mcp.streamable_http_app()
served = app if sys.argv[3:] == ["bare"] else guarded(app)
uvicorn.run(served, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
