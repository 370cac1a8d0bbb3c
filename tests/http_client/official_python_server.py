"""The official Python SDK (PyPI `mcp`) serving streamable-http, for the Rust client's
HTTP tests: `python official_python_server.py PORT` (`PORT CERT KEY [CLIENT_CA]`: https://
under uvicorn, with client certificates required when CLIENT_CA is given).

It keeps every SSE event in memory (an `EventStore`, which the SDK needs before it will
resume a stream or let a handler close one) and suggests a short `retry`, so the tool
`interrupted` can close its own response stream halfway through and the client has to
reconnect with `Last-Event-ID` to get the rest. `request_headers` shows a call the
headers it came with.
"""

import sys
from itertools import count
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore
from pydantic import Field


class MemoryEventStore(EventStore):
    """Every event of every stream, in order; replay sends what followed an id on its stream."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []
        self.ids = count(1)

    async def store_event(self, stream_id, message):
        event_id = str(next(self.ids))
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        position = next((i for i, (event_id, _, _) in enumerate(self.events) if event_id == last_event_id), None)
        if position is None:
            return None
        stream = self.events[position][1]
        for event_id, stream_id, message in self.events[position + 1 :]:
            if stream_id == stream and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream


mcp = MCPServer("official-python-http")


@mcp.tool()
def echo(message: str) -> str:
    """Returns its argument."""
    return message


@mcp.tool()
def request_headers(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], ctx: Context) -> dict:
    """The HTTP headers of this very call (lower-case names); `region` is mirrored into
    `Mcp-Param-Region`."""
    return {name.lower(): value for name, value in (ctx.headers or {}).items()}


@mcp.tool()
async def interrupted(steps: int, ctx: Context) -> str:
    """Reports `steps` progress notifications, closing its response stream after the first."""
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step}")
        if step == 1:
            await ctx.close_sse_stream()
    return f"done after {steps} steps"


if __name__ == "__main__":
    if len(sys.argv) >= 4:
        # PORT CERT KEY [CLIENT_CA]: https:// under uvicorn, which the SDK's run() does not
        # offer; with CLIENT_CA, clients must present a certificate that CA signed.
        import ssl

        import uvicorn

        app = mcp.streamable_http_app(event_store=MemoryEventStore(), retry_interval=100)
        mutual = {"ssl_ca_certs": sys.argv[4], "ssl_cert_reqs": ssl.CERT_REQUIRED} if len(sys.argv) == 5 else {}
        uvicorn.run(
            app, host="127.0.0.1", port=int(sys.argv[1]), ssl_certfile=sys.argv[2], ssl_keyfile=sys.argv[3], **mutual
        )
    else:
        mcp.run(
            "streamable-http",
            host="127.0.0.1",
            port=int(sys.argv[1]),
            event_store=MemoryEventStore(),
            retry_interval=100,
        )
