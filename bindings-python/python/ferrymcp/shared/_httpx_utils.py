"""`create_mcp_http_client` (`mcp.shared._httpx_utils`): the `httpx.AsyncClient` the
official SDK makes for MCP work (redirects followed, a 30 s timeout unless given), for
user code that fetches with it. Needs `httpx` installed; ferrymcp's own HTTP goes
through the engine."""

from __future__ import annotations

from typing import Any


def create_mcp_http_client(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any:
    try:
        import httpx  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("create_mcp_http_client needs httpx (pip install httpx)") from error
    options: dict[str, Any] = {"follow_redirects": True, "timeout": timeout or httpx.Timeout(30.0)}
    if headers is not None:
        options["headers"] = headers
    if auth is not None:
        options["auth"] = auth
    return httpx.AsyncClient(**options)


__all__ = ["create_mcp_http_client"]
