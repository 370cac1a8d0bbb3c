"""`create_mcp_http_client` (`mcp.shared._httpx_utils`): the HTTP client the official SDK
makes for MCP work (30 s to connect, write and wait for the pool and 300 s to read unless
a timeout is given), for user code that fetches with it. ferrymcp's own HTTP goes through
the engine, so neither library is a dependency of ferrymcp: the client is an
`httpx2.AsyncClient`, as the official 2.x (2.3) makes it, or an `httpx.AsyncClient`, as
1.x (1.30) makes it: the library the given `timeout` or `auth` comes from, else `httpx2`
when it is installed, else `httpx`. Redirects are not followed (the library's default), as
in both releases."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Protocol

__all__ = ["MCP_DEFAULT_SSE_READ_TIMEOUT", "MCP_DEFAULT_TIMEOUT", "McpHttpClientFactory", "create_mcp_http_client"]

MCP_DEFAULT_TIMEOUT = 30.0
"""Seconds to connect, write and wait for a pooled connection."""
MCP_DEFAULT_SSE_READ_TIMEOUT = 300.0
"""Seconds to wait for the next bytes of a response (an SSE stream may be quiet long)."""

_LIBRARIES = ("httpx2", "httpx")


class McpHttpClientFactory(Protocol):
    """What makes the client (`create_mcp_http_client`'s signature)."""

    def __call__(self, headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any: ...


def _library(*given: Any) -> ModuleType:
    for value in given:
        if value is not None and type(value).__module__.split(".")[0] in _LIBRARIES:
            return importlib.import_module(type(value).__module__.split(".")[0])
    for name in _LIBRARIES:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(
        "create_mcp_http_client needs httpx2 (the official SDK 2.x's HTTP library) or httpx (1.x's): pip install httpx2"
    )


def create_mcp_http_client(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any:
    """An `AsyncClient` of `httpx2` or `httpx` (see the module doc) with MCP's defaults."""
    library = _library(timeout, auth)
    options: dict[str, Any] = {}
    options["timeout"] = (
        timeout if timeout is not None else library.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT)
    )
    if headers is not None:
        options["headers"] = headers
    if auth is not None:
        options["auth"] = auth
    return library.AsyncClient(**options)
