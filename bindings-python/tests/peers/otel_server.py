"""A traced bookshop for test_otel.py, run as a stdio server process: ferrymcp's `MCPServer`
(or, given `official`, the official SDK's, for the comparison) with OpenTelemetry's SDK and
its in-memory exporter installed before the server is built. `untraced` takes the tracing
middleware off the server's list, as the official documentation shows.

The `spans` tool answers the spans finished so far as JSON (name, kind, ids, parent,
attributes, status), the server's own and the one each tool starts inside itself."""

from __future__ import annotations

import json
import sys
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

EXPORTER = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(provider)

if "official" in sys.argv[1:]:
    from mcp.server._otel import OpenTelemetryMiddleware
    from mcp.server.mcpserver import MCPServer
else:
    from ferrymcp.server._otel import OpenTelemetryMiddleware
    from ferrymcp.server.mcpserver import MCPServer

mcp = MCPServer("Bookshop")
if "untraced" in sys.argv[1:]:
    mcp._lowlevel_server.middleware[:] = [
        m for m in mcp._lowlevel_server.middleware if not isinstance(m, OpenTelemetryMiddleware)
    ]
tracer = trace.get_tracer("bookshop")


@mcp.tool()
def search_books(query: str) -> str:
    """Search the catalog (a sync tool, run on a worker thread)."""
    with tracer.start_as_current_span("catalog lookup"):
        return f"Found 3 books matching {query!r}."


@mcp.tool()
async def reserve(title: str) -> str:
    """Reserve a book (an async tool, run on the loop)."""
    with tracer.start_as_current_span("reservation"):
        return f"Reserved {title!r}."


@mcp.tool()
def out_of_stock(title: str) -> str:
    raise ValueError(f"{title} is out of stock")


@mcp.prompt()
def recommend(genre: str) -> str:
    return f"Recommend a {genre} book."


def _hex(value: int, width: int) -> str:
    return format(value, f"0{width}x")


@mcp.tool()
def spans() -> str:
    finished: list[dict[str, Any]] = []
    for span in EXPORTER.get_finished_spans():
        assert span.context is not None
        finished.append(
            {
                "name": span.name,
                "kind": span.kind.name,
                "scope": span.instrumentation_scope.name if span.instrumentation_scope else None,
                "trace_id": _hex(span.context.trace_id, 32),
                "span_id": _hex(span.context.span_id, 16),
                "parent": _hex(span.parent.span_id, 16) if span.parent else None,
                "attributes": dict(span.attributes or {}),
                "status": span.status.status_code.name,
                "description": span.status.description,
            }
        )
    return json.dumps(finished)


if __name__ == "__main__":
    mcp.run()
