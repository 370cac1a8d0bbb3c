"""ferrymcp's exceptions: `McpError` (with `.code` and `.data`) and its subclasses.

The classes are created once, in the native module, so an error raised by the engine
and one raised by Python code are the same class. When the native module is absent (a
source checkout before `maturin develop`), the same classes are defined here so the
pure-Python parts still import and can be tested.
"""

from __future__ import annotations

from typing import Any

try:
    from ferrymcp._native import ConnectionClosed, McpError, ProtocolError, RequestCancelled, RequestTimeout
except ImportError:

    class McpError(Exception):  # type: ignore[no-redef]
        """A JSON-RPC error: raise it from a handler to answer with exactly this error."""

        def __init__(self, code: int, message: str, data: Any = None) -> None:
            super().__init__(message)
            self.code = code
            self.message = message
            self.data = data

    class ConnectionClosed(McpError):  # type: ignore[no-redef]
        """The connection to the peer ended while a request was in flight."""

    class RequestTimeout(McpError):  # type: ignore[no-redef]
        """A request got no answer in time."""

    class RequestCancelled(McpError):  # type: ignore[no-redef]
        """A request was cancelled."""

    class ProtocolError(McpError):  # type: ignore[no-redef]
        """The peer broke the protocol."""


MCPError = McpError
"""The official SDK's v2 spelling."""

__all__ = ["ConnectionClosed", "MCPError", "McpError", "ProtocolError", "RequestCancelled", "RequestTimeout"]


class ResourceNotFound(Exception):
    """Raise from a resource handler when its URI names nothing: the engine answers with
    the not-found error of the request's protocol era (-32002, or -32602 from 2026-07-28)."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Resource not found: {uri}")
        self.uri = uri
