"""Cache hints for 2026-07-28 results (the official `mcp.server.caching`): `CacheHint`,
the `CacheableMethod` names `cache_hints` takes, `CACHEABLE_METHODS`, and
`validate_cache_hints`. The engine stamps `ttlMs`/`cacheScope` on the results (what a
handler set itself wins, per field), so `apply_cache_hint`, the official helper that fills
them in Python, is refused by name: pass `cache_hints=` to the server, or set `ttl_ms` /
`cache_scope` on the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NoReturn, get_args

from ferrymcp.server.mcpserver.server import CacheHint

__all__ = ["CACHEABLE_METHODS", "CacheHint", "CacheableMethod", "apply_cache_hint", "validate_cache_hints"]

CacheableMethod = Literal[
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
]

CACHEABLE_METHODS: Final[frozenset[str]] = frozenset(get_args(CacheableMethod))


def validate_cache_hints(cache_hints: Mapping[Any, Any] | None) -> dict[str, CacheHint]:
    """A `cache_hints` argument checked and copied into a dict, as the server constructors
    check theirs: a key that is not a cacheable method is a `ValueError`, a value that is
    not a `CacheHint` a `TypeError`."""
    if cache_hints is None:
        return {}
    unknown = sorted(repr(method) for method in cache_hints if method not in CACHEABLE_METHODS)
    if unknown:
        raise ValueError(f"cache_hints keys must be cacheable methods (see CacheableMethod); got: {', '.join(unknown)}")
    for method, hint in cache_hints.items():
        if not isinstance(hint, CacheHint):
            raise TypeError(f"cache_hints[{method!r}] must be a CacheHint, got {type(hint).__name__}")
    return dict(cache_hints)


def apply_cache_hint(result: Any, hint: CacheHint) -> NoReturn:
    """Refused (see the module doc): ferrymcp's engine applies cache hints to results."""
    raise NotImplementedError(
        "apply_cache_hint is not supported: ferrymcp's engine stamps ttlMs/cacheScope on "
        "cacheable results itself; pass cache_hints={method: CacheHint(...)} to the server, "
        "or set ttl_ms / cache_scope on the result"
    )
