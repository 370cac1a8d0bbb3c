"""ferrymcp's exceptions: `McpError` (with `.code` and `.data`) and its subclasses.

The classes are defined here, once, in Python: the native module (`src/errors.rs`) looks
them up in this module when it raises, so an error raised by the engine and one raised by
Python code are the same class. (They cannot be created natively: the abi3 build of the
module cannot subclass Python's exceptions.) `_native.pyi` therefore declares none of them.
"""

from __future__ import annotations

from typing import Any


class McpError(Exception):
    """A JSON-RPC error: raise it from a handler to answer with exactly this error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class ConnectionClosed(McpError):
    """The connection to the peer ended while a request was in flight."""


class RequestTimeout(McpError):
    """A request got no answer in time."""


class RequestCancelled(McpError):
    """A request was cancelled."""


class ProtocolError(McpError):
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
