"""The official `mcp.server.sse` (the HTTP+SSE transport of protocol revision 2024-11-05).

ferrymcp does not serve that transport (its client still falls back to it): building an
`SseServerTransport` raises a `NotImplementedError` that says so and names what to use,
Streamable HTTP (`mcp.run("streamable-http")`, `mcp.streamable_http_app()`)."""

from __future__ import annotations

from typing import Any

__all__ = ["SseServerTransport"]


class SseServerTransport:
    """Refused by name (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "SseServerTransport (HTTP+SSE, 2024-11-05) is not served by ferrymcp: serve Streamable HTTP "
            "instead (mcp.run('streamable-http') or mcp.streamable_http_app())"
        )
