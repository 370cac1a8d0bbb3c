"""Cache hints for 2026-07-28 results (the official `mcp.server.caching`): `CacheHint`,
the `CacheableMethod` names `cache_hints` takes, and `CACHEABLE_METHODS`. The engine
stamps `ttlMs`/`cacheScope` on the results (what a handler set itself wins, per field)."""

from __future__ import annotations

from typing import Final, Literal, get_args

from ferrymcp.server.mcpserver.server import CacheHint

__all__ = ["CACHEABLE_METHODS", "CacheHint", "CacheableMethod"]

CacheableMethod = Literal[
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
]

CACHEABLE_METHODS: Final[frozenset[str]] = frozenset(get_args(CacheableMethod))
