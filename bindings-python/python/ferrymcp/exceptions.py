"""ferrymcp's exceptions: `McpError` (with `.code` and `.data`) and its subclasses.

The classes are defined here, once, in Python: the native module (`src/errors.rs`) looks
them up in this module when it raises, so an error raised by the engine and one raised by
Python code are the same class. (They cannot be created natively: the abi3 build of the
module cannot subclass Python's exceptions.) `_native.pyi` therefore declares none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ferrymcp.types import ElicitRequestURLParams, ErrorData, JSONRPCError


class McpError(Exception):
    """A JSON-RPC error: raise it from a handler to answer with exactly this error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    @property
    def error(self) -> ErrorData:
        """The error as the wire's error object (the official `MCPError.error`)."""
        from ferrymcp.types import ErrorData

        return ErrorData(code=self.code, message=self.message, data=self.data)

    @classmethod
    def from_error_data(cls, error: ErrorData) -> McpError:
        """The exception a received error object stands for."""
        return cls(error.code, error.message, error.data)

    @classmethod
    def from_jsonrpc_error(cls, error: JSONRPCError) -> McpError:
        """The exception a received error response stands for."""
        return cls.from_error_data(error.error)


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


class NoBackChannelError(McpError):
    """A server-initiated request with no channel to deliver it (a 2026-07-28 request has
    none: the server asks through input requests instead); an INVALID_REQUEST error."""

    def __init__(self, method: str) -> None:
        from ferrymcp import types

        super().__init__(
            types.INVALID_REQUEST,
            f"Cannot send {method!r}: this transport context has no back-channel for server-initiated requests.",
        )
        self.method = method


class UrlElicitationRequiredError(McpError):
    """Raise from a tool when the user must first complete URL-mode elicitations: the
    request fails with the URL_ELICITATION_REQUIRED error, whose data lists them."""

    def __init__(self, elicitations: list[ElicitRequestURLParams], message: str | None = None) -> None:
        from ferrymcp import types

        plural = "s" if len(elicitations) > 1 else ""
        data = {"elicitations": [e.model_dump(by_alias=True, exclude_none=True) for e in elicitations]}
        super().__init__(types.URL_ELICITATION_REQUIRED, message or f"URL elicitation{plural} required", data)
        self._elicitations = elicitations

    @property
    def elicitations(self) -> list[ElicitRequestURLParams]:
        """The elicitations the client must complete."""
        return self._elicitations

    @classmethod
    def from_error(cls, error: ErrorData) -> UrlElicitationRequiredError:
        """The exception an error received with this code stands for."""
        from ferrymcp import types

        if error.code != types.URL_ELICITATION_REQUIRED:
            raise ValueError(f"expected the error code {types.URL_ELICITATION_REQUIRED}, got {error.code}")
        raw = (error.data or {}).get("elicitations", [])
        return cls([types.ElicitRequestURLParams.model_validate(item) for item in raw], error.message)


class InputRequiredRoundsExceededError(RuntimeError):
    """A server kept answering `InputRequiredResult` for more rounds than the client allows."""

    def __init__(self, max_rounds: int) -> None:
        super().__init__(f"the server asked for input in more than {max_rounds} rounds")
        self.max_rounds = max_rounds


class MCPDeprecationWarning(UserWarning):
    """Warns of a deprecated part of the API; a `UserWarning`, so it shows by default."""


__all__ = [
    "ConnectionClosed",
    "InputRequiredRoundsExceededError",
    "MCPDeprecationWarning",
    "MCPError",
    "McpError",
    "NoBackChannelError",
    "ProtocolError",
    "RequestCancelled",
    "RequestTimeout",
    "UrlElicitationRequiredError",
]


class ResourceNotFound(Exception):
    """Raise from a resource handler when its URI names nothing: the engine answers with
    the not-found error of the request's protocol era (-32002, or -32602 from 2026-07-28)."""

    detail: str | None = None
    """The application's own wording of the error, when it gave one (the engine answers
    with it instead of "Resource not found: ...")."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Resource not found: {uri}")
        self.uri = uri
