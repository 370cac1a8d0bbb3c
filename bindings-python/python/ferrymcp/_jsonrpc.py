"""The JSON-RPC 2.0 envelopes, as `ferrymcp.types.jsonrpc` (the official `mcp_types.jsonrpc`).

Code ported from the official SDK builds and reads raw messages with these classes and
`jsonrpc_message_adapter` (custom transports, message handlers, tests that speak the wire);
the engine never uses them: it frames and parses envelopes in Rust. They are WireModel
classes like the rest of `ferrymcp.types`, so this module imports neither pydantic nor the
native engine. The error-code constants are the engine's, read on first use through
`ferrymcp.types`.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from ferrymcp._wire import UnionAdapter, WireModel

RequestId = int | str
"""The id of a JSON-RPC request."""

JSONRPC_VERSION: Final[Literal["2.0"]] = "2.0"
"""The `jsonrpc` member of every envelope (fixed by JSON-RPC 2.0 itself, not by MCP)."""


class ErrorData(WireModel):
    """The `error` member of an error response."""

    code: int
    message: str
    data: Any = None


class JSONRPCRequest(WireModel):
    """A request: it has an `id` and expects a response."""

    jsonrpc: Literal["2.0"]
    id: RequestId
    method: str
    params: dict[str, Any] | None = None


class JSONRPCNotification(WireModel):
    """A notification: no `id`, never answered."""

    jsonrpc: Literal["2.0"]
    method: str
    params: dict[str, Any] | None = None


class JSONRPCResponse(WireModel):
    """A successful response (`JSONRPCResultResponse` in the 2025-11-25+ schemas)."""

    jsonrpc: Literal["2.0"]
    id: RequestId
    result: dict[str, Any]


class JSONRPCError(WireModel):
    """An error response; `id` is `None` when the request's id could not be read."""

    jsonrpc: Literal["2.0"]
    id: RequestId | None
    error: ErrorData


JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse | JSONRPCError
"""Any envelope."""

jsonrpc_message_adapter: Final = UnionAdapter(
    "JSONRPCMessage", (JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError)
)
"""Reads a wire dict or JSON text as the envelope it is (a request has `id` and `method`,
a notification only `method`, a response `result`, an error `error`)."""

_ERROR_CODES = (
    "CONNECTION_CLOSED",
    "HEADER_MISMATCH",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "REQUEST_TIMEOUT",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "URL_ELICITATION_REQUIRED",
)


def __getattr__(name: str) -> Any:
    if name not in _ERROR_CODES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ferrymcp import types

    value = getattr(types, name)
    globals()[name] = value
    return value


__all__ = [
    *_ERROR_CODES,
    "JSONRPC_VERSION",
    "ErrorData",
    "JSONRPCError",
    "JSONRPCMessage",
    "JSONRPCNotification",
    "JSONRPCRequest",
    "JSONRPCResponse",
    "RequestId",
    "jsonrpc_message_adapter",
]
