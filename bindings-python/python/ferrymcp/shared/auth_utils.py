"""The official `mcp.shared.auth_utils`: RFC 8707 resource indicators, with core's rules
(the ones its OAuth client and bearer-protected server apply), and a token's expiry time.

- `resource_url_from_server_url(url)`: the canonical resource URI of a server URL (scheme
  and host lowercase, no fragment). Core drops the query too, where the official helper
  keeps it: a resource indicator has no query in MCP's use.
- `check_resource_allowed(requested_resource, configured_resource)`: whether a token for
  `configured_resource` may be used at `requested_resource` (the same origin, and the
  configured path a prefix of the requested one at a segment boundary).
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["calculate_token_expiry", "check_resource_allowed", "resource_url_from_server_url"]


def resource_url_from_server_url(url: Any) -> str:
    """The canonical resource URI of the server URL `url` (a str or a URL object);
    a `ValueError` when it is not an absolute URL."""
    from ferrymcp import _native

    return _native.canonical_resource(str(url))


def check_resource_allowed(requested_resource: str, configured_resource: str) -> bool:
    """Whether `configured_resource` covers `requested_resource` (see the module doc)."""
    from ferrymcp import _native

    return _native.resource_covers(str(configured_resource), str(requested_resource))


def calculate_token_expiry(expires_in: int | str | None) -> float | None:
    """When a token that lives `expires_in` seconds from now expires (a Unix time), or
    `None` without an expiry."""
    if expires_in is None:
        return None
    return time.time() + int(expires_in)
