"""Inbound request classification (`mcp.shared.inbound`): the official validation ladder
for a decoded 2026-07-28 request, run by the engine (core's `protocol::inbound`, the
official wording); this module converts values to and from it.

Not yet here: the `x-mcp-header` schema walk and `Mcp-Param-*` helpers
(`find_invalid_x_mcp_header`, `x_mcp_header_map`, `mcp_param_headers`,
`validate_mcp_param_headers`, `MCP_PARAM_HEADER_PREFIX`, `X_MCP_HEADER_KEY`): importing
one raises `ImportError` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ferrymcp import _native
from ferrymcp._version import MODERN_PROTOCOL_VERSIONS

__all__ = [
    "ERROR_CODE_HTTP_STATUS",
    "InboundLadderRejection",
    "InboundModernRoute",
    "MCP_METHOD_HEADER",
    "MCP_NAME_HEADER",
    "MCP_PROTOCOL_VERSION_HEADER",
    "NAME_BEARING_METHODS",
    "classify_inbound_request",
    "decode_header_value",
    "encode_header_value",
    "find_duplicated_routing_header",
    "unsupported_protocol_version_rejection",
]

_statuses, _names, _headers = _native.inbound_tables()

MCP_PROTOCOL_VERSION_HEADER: Final[str] = _headers["MCP_PROTOCOL_VERSION_HEADER"]
"""Lowercase name of the HTTP header carrying the MCP protocol version."""
MCP_METHOD_HEADER: Final[str] = _headers["MCP_METHOD_HEADER"]
"""Lowercase name of the HTTP header carrying the JSON-RPC method."""
MCP_NAME_HEADER: Final[str] = _headers["MCP_NAME_HEADER"]
"""Lowercase name of the HTTP header carrying the request's target (tool, prompt, resource URI)."""
NAME_BEARING_METHODS: Final[Mapping[str, str]] = MappingProxyType(_names)
"""Method -> the params key `Mcp-Name` mirrors."""
ERROR_CODE_HTTP_STATUS: Final[Mapping[int, int]] = MappingProxyType(_statuses)
"""HTTP status to send for a JSON-RPC `error.code`; unmapped codes keep the caller's default."""

_NOT_YET = frozenset(
    {
        "MCP_PARAM_HEADER_PREFIX",
        "X_MCP_HEADER_KEY",
        "find_invalid_x_mcp_header",
        "mcp_param_headers",
        "validate_mcp_param_headers",
        "x_mcp_header_map",
    }
)


def __getattr__(name: str) -> Any:
    if name in _NOT_YET:
        raise AttributeError(f"ferrymcp.shared.inbound.{name} is not implemented yet (mcp.shared.inbound's)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class InboundModernRoute:
    """A 2026-07-28 request whose envelope passed every rung: the raw envelope values
    (`client_info` is `None` when the optional key is absent)."""

    protocol_version: str
    client_info: Any
    client_capabilities: Any


@dataclass(frozen=True)
class InboundLadderRejection:
    """The first rung that failed, as JSON-RPC error fields."""

    code: int
    message: str
    data: Any = None


def _plain(value: Mapping[str, Any]) -> Any:
    return value if isinstance(value, dict) else {k: v for k, v in value.items()}


def classify_inbound_request(
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
    supported_modern_versions: Sequence[str] = MODERN_PROTOCOL_VERSIONS,
) -> InboundModernRoute | InboundLadderRejection:
    """The official ladder over a decoded JSON-RPC request body (first failure wins): the
    `params._meta` envelope (-32602), then, with `headers` (keyed by lowercase name), the
    routing headers against the body (-32020), then the version's shape (-32602) and
    support (-32022)."""
    passed, fields = _native.classify_inbound_request(
        _plain(body), None if headers is None else _plain(headers), list(supported_modern_versions)
    )
    return InboundModernRoute(*fields) if passed else InboundLadderRejection(*fields)


def unsupported_protocol_version_rejection(
    requested: str, supported_modern_versions: Sequence[str] = MODERN_PROTOCOL_VERSIONS
) -> InboundLadderRejection | None:
    """The -32022 rejection naming `supported_modern_versions`, or `None` if `requested` is one."""
    fields = _native.unsupported_protocol_version_rejection(requested, list(supported_modern_versions))
    return None if fields is None else InboundLadderRejection(*fields)


def encode_header_value(value: str) -> str:
    """`value` as a header carries it: verbatim when it is plain visible ASCII, else `=?base64?...?=`."""
    return _native.encode_header_value(value)


def decode_header_value(value: str | None) -> str | None:
    """The inverse of `encode_header_value`; `None` for `None` or a malformed sentinel."""
    return _native.decode_header_value(value)


def find_duplicated_routing_header(headers: Iterable[tuple[str, str]]) -> str | None:
    """The (lowercase) name of a routing header given more than once in raw header lines."""
    return _native.find_duplicated_routing_header([name for name, _ in headers])
