"""The client half of test_otel.py, in a process of its own so that the tracer provider it
installs stays out of the test process: `otel_client.py official|ferrymcp MODE [SERVER
ARGS...]` runs the same calls, by the official client or ferrymcp's, on an
otel_server.py process and prints the spans of both sides as JSON (`client`, `server`)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

EXPORTER = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(provider)

SERVER = str(Path(__file__).with_name("otel_server.py"))
which, mode, *server_args = sys.argv[1:]
if which == "official":
    import mcp as sdk
    from mcp import MCPError as Refused
else:
    import ferrymcp as sdk
    from ferrymcp.exceptions import McpError as Refused


async def main() -> None:
    params = sdk.StdioServerParameters(command=sys.executable, args=[SERVER, *server_args])
    async with sdk.Client(params, mode=mode) as client:
        assert not (await client.call_tool("search_books", {"query": "dune"})).is_error
        assert not (await client.call_tool("reserve", {"title": "Dune"})).is_error
        assert (await client.call_tool("out_of_stock", {"title": "Dune"})).is_error
        await client.get_prompt("recommend", {"genre": "mystery"})
        try:
            await client.read_resource("books://nowhere")
        except Refused:
            pass
        else:
            raise AssertionError("reading an unknown resource succeeded")
        answer: Any = (await client.call_tool("spans", {})).content[0]
    sent = [
        {
            "name": s.name,
            "kind": s.kind.name,
            "trace_id": format(s.context.trace_id, "032x"),
            "span_id": format(s.context.span_id, "016x"),
            "attributes": dict(s.attributes or {}),
        }
        for s in EXPORTER.get_finished_spans()
        if s.context is not None
    ]
    print(json.dumps({"client": sent, "server": json.loads(answer.text)}))


asyncio.run(main())
