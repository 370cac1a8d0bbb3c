"""The protocol revisions, as `ferrymcp.types.version` (the official `mcp_types.version`).

Every value is derived from the engine's own list (`ferrymcp._native.PROTOCOL_VERSIONS`,
oldest first, with `LATEST_PROTOCOL_VERSION` the newest reachable by `initialize` and
`MODERN_PROTOCOL_VERSION` the newest stateless one), read on first use (PEP 562) so that
importing `ferrymcp.types` does not load the native module. Revisions are compared by
their position in that list, never as strings, and an unknown revision is never "at
least" anything.

One name means something else here than in `ferrymcp.types`: this module's
`LATEST_PROTOCOL_VERSION` is the newest revision of any era (as in the official module),
while `ferrymcp.types.LATEST_PROTOCOL_VERSION` is the newest `initialize` negotiates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any


def _known(native: Any) -> tuple[str, ...]:
    return tuple(native.PROTOCOL_VERSIONS)


def _handshake(native: Any) -> tuple[str, ...]:
    known = _known(native)
    return known[: known.index(native.LATEST_PROTOCOL_VERSION) + 1]


def _modern(native: Any) -> tuple[str, ...]:
    known = _known(native)
    return known[known.index(native.LATEST_PROTOCOL_VERSION) + 1 :]


_FROM_NATIVE: dict[str, Callable[[Any], Any]] = {
    "KNOWN_PROTOCOL_VERSIONS": _known,
    "HANDSHAKE_PROTOCOL_VERSIONS": _handshake,
    "MODERN_PROTOCOL_VERSIONS": _modern,
    "SUPPORTED_PROTOCOL_VERSIONS": _known,
    "LATEST_PROTOCOL_VERSION": lambda n: _known(n)[-1],
    "LATEST_HANDSHAKE_VERSION": lambda n: n.LATEST_PROTOCOL_VERSION,
    "LATEST_MODERN_VERSION": lambda n: n.MODERN_PROTOCOL_VERSION,
    "OLDEST_SUPPORTED_VERSION": lambda n: _known(n)[0],
}

if TYPE_CHECKING:
    KNOWN_PROTOCOL_VERSIONS: tuple[str, ...]
    HANDSHAKE_PROTOCOL_VERSIONS: tuple[str, ...]
    MODERN_PROTOCOL_VERSIONS: tuple[str, ...]
    SUPPORTED_PROTOCOL_VERSIONS: tuple[str, ...]
    LATEST_PROTOCOL_VERSION: str
    LATEST_HANDSHAKE_VERSION: str
    LATEST_MODERN_VERSION: str
    OLDEST_SUPPORTED_VERSION: str


def __getattr__(name: str) -> Any:
    read = _FROM_NATIVE.get(name)
    if read is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ferrymcp import _native

    value = read(_native)
    globals()[name] = value
    return value


def is_version_at_least(version: str, minimum: str) -> bool:
    """Whether `version` is a known revision no older than `minimum` (which must be a
    known revision: anything else raises `ValueError`). Unknown versions are `False`."""
    known: tuple[str, ...] = __getattr__("KNOWN_PROTOCOL_VERSIONS")
    if minimum not in known:
        raise ValueError(f"minimum must be a known protocol version, got {minimum!r}")
    return version in known and known.index(version) >= known.index(minimum)


__all__ = [
    "HANDSHAKE_PROTOCOL_VERSIONS",
    "KNOWN_PROTOCOL_VERSIONS",
    "LATEST_HANDSHAKE_VERSION",
    "LATEST_MODERN_VERSION",
    "LATEST_PROTOCOL_VERSION",
    "MODERN_PROTOCOL_VERSIONS",
    "OLDEST_SUPPORTED_VERSION",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "is_version_at_least",
]
