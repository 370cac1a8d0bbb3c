"""Inbound request classification (`mcp.shared.inbound`): the official validation ladder
for a decoded 2026-07-28 request, run by the engine (core's `protocol::inbound`, the
official wording), with the `x-mcp-header` schema rule and the `Mcp-Param-*` headers it
designates; this module converts values to and from it.
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
    "MCP_PARAM_HEADER_PREFIX",
    "MCP_PROTOCOL_VERSION_HEADER",
    "NAME_BEARING_METHODS",
    "X_MCP_HEADER_KEY",
    "classify_inbound_request",
    "decode_header_value",
    "encode_header_value",
    "find_duplicated_routing_header",
    "find_invalid_x_mcp_header",
    "mcp_param_headers",
    "unsupported_protocol_version_rejection",
    "validate_mcp_param_headers",
    "x_mcp_header_map",
]

_statuses, _names, _headers = _native.inbound_tables()

MCP_PROTOCOL_VERSION_HEADER: Final[str] = _headers["MCP_PROTOCOL_VERSION_HEADER"]
"""Lowercase name of the HTTP header carrying the MCP protocol version."""
MCP_METHOD_HEADER: Final[str] = _headers["MCP_METHOD_HEADER"]
"""Lowercase name of the HTTP header carrying the JSON-RPC method."""
MCP_NAME_HEADER: Final[str] = _headers["MCP_NAME_HEADER"]
"""Lowercase name of the HTTP header carrying the request's target (tool, prompt, resource URI)."""
X_MCP_HEADER_KEY: Final[str] = _headers["X_MCP_HEADER_KEY"]
"""JSON-Schema property annotation that designates an `Mcp-Param-*` HTTP header."""
MCP_PARAM_HEADER_PREFIX: Final[str] = _headers["MCP_PARAM_HEADER_PREFIX"]
"""Prefix the `x-mcp-header` token is joined to, forming the per-parameter header name."""
NAME_BEARING_METHODS: Final[Mapping[str, str]] = MappingProxyType(_names)
"""Method -> the params key `Mcp-Name` mirrors."""
ERROR_CODE_HTTP_STATUS: Final[Mapping[int, int]] = MappingProxyType(_statuses)
"""HTTP status to send for a JSON-RPC `error.code`; unmapped codes keep the caller's default."""


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


def find_invalid_x_mcp_header(input_schema: Any) -> str | None:
    """Why an `x-mcp-header` annotation in `input_schema` is invalid (off a pure `properties`
    chain, not an RFC 9110 token, not on an integer/string/boolean property, or a duplicate
    ignoring case), or `None`."""
    return _native.find_invalid_x_mcp_header(input_schema)


def x_mcp_header_map(input_schema: Any) -> dict[tuple[str, ...], str]:
    """Each annotated property's `properties` path -> its `x-mcp-header` token (for a schema
    `find_invalid_x_mcp_header` accepts)."""
    return {tuple(path): token for path, token in _native.x_mcp_header_map(input_schema)}


def mcp_param_headers(header_map: Mapping[tuple[str, ...], str], arguments: Mapping[str, Any]) -> dict[str, str]:
    """The `Mcp-Param-*` headers a `tools/call` mirrors from `arguments` (a value absent,
    `None` or not a scalar sends none; values encoded as `encode_header_value` does)."""
    pairs = [(list(path), token) for path, token in header_map.items()]
    return dict(_native.mcp_param_headers(pairs, _plain(arguments)))


def validate_mcp_param_headers(
    input_schema: Any, arguments: Mapping[str, Any], headers: Mapping[str, str]
) -> InboundLadderRejection | None:
    """A `tools/call`'s `Mcp-Param-*` headers against its arguments: the first disagreement
    as a -32020 rejection, or `None` (also for a schema `find_invalid_x_mcp_header` refuses)."""
    fields = _native.validate_mcp_param_headers(input_schema, _plain(arguments), list(headers.items()))
    return None if fields is None else InboundLadderRejection(*fields)
