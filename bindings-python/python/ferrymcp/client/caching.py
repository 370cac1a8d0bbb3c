"""The client response cache's configuration (2026-07-28 `ttlMs`/`cacheScope` hints), under
the official SDK's names (`mcp.client.caching`).

The cache itself (keys, scope, expiry, eviction on `list_changed` and
`resources/updated`, the per-call `cache_mode`) is ferrymcp's engine; this module holds the
objects the official API takes. `Client(server, cache=CacheConfig(...))` configures it,
`cache=None` turns it off; it is on by default with an in-memory store per client.

Not supported yet: a custom `store` (a `ResponseCacheStore` object, including an
`InMemoryResponseCacheStore` shared between clients); `Client` refuses one with
`NotImplementedError` naming `CacheConfig.store`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

__all__ = [
    "MAX_TTL_MS",
    "CacheConfig",
    "CacheEntry",
    "CacheKey",
    "CacheMode",
    "InMemoryResponseCacheStore",
    "ResponseCacheStore",
]

CacheMode = Literal["use", "refresh", "bypass"]
"""Per call: `"use"` serves and stores, `"refresh"` stores without serving, `"bypass"`
neither reads nor writes the cache."""

MAX_TTL_MS: Final[int] = 24 * 60 * 60 * 1000
"""Cap on any entry's time to live (24 hours); larger `ttlMs` values are clamped."""


@dataclass(frozen=True, slots=True)
class CacheKey:
    """Identity of one cached response."""

    method: str
    params_key: str = ""
    partition: str = ""


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """One cached response with its freshness and sharing metadata."""

    value: Any
    scope: Literal["public", "private"]
    expires_at: float | None


class ResponseCacheStore(Protocol):
    """The storage contract of the official SDK (custom stores are not supported yet)."""

    async def get(self, key: CacheKey) -> CacheEntry | None: ...

    async def set(self, key: CacheKey, entry: CacheEntry) -> None: ...

    async def delete(self, key: CacheKey) -> None: ...

    async def clear(self) -> None: ...


class InMemoryResponseCacheStore:
    """The default store's settings: `max_entries` caps it (least recently used evicted;
    `0` disables the cap). The engine keeps the entries; passing one as
    `CacheConfig.store` is not supported yet."""

    def __init__(self, *, max_entries: int = 1024) -> None:
        if max_entries < 0:
            raise ValueError(f"max_entries must be >= 0, got {max_entries}")
        self.max_entries = max_entries

    async def get(self, key: CacheKey) -> CacheEntry | None:
        raise NotImplementedError("InMemoryResponseCacheStore's entries live in ferrymcp's engine")

    async def set(self, key: CacheKey, entry: CacheEntry) -> None:
        raise NotImplementedError("InMemoryResponseCacheStore's entries live in ferrymcp's engine")

    async def delete(self, key: CacheKey) -> None:
        raise NotImplementedError("InMemoryResponseCacheStore's entries live in ferrymcp's engine")

    async def clear(self) -> None:
        raise NotImplementedError("InMemoryResponseCacheStore's entries live in ferrymcp's engine")


@dataclass(frozen=True, slots=True)
class CacheConfig:
    """Configuration of a `Client`'s response cache (see the module doc).

    Raises:
        ValueError: On a custom `store` without `partition`, an empty `target_id`, or a
            negative `default_ttl_ms`.
    """

    store: ResponseCacheStore | None = None
    partition: str = ""
    target_id: str | None = None
    default_ttl_ms: int = 0
    clock: Callable[[], float] = time.time
    share_public: bool = False

    def __post_init__(self) -> None:
        # The engine checks the same rules when the client connects; raising here too
        # reports them where the official SDK does, at construction.
        if self.store is not None and not self.partition:
            raise ValueError("a custom store requires an explicit partition")
        if self.target_id == "":
            raise ValueError("target_id must be a non-empty string or omitted")
        if self.default_ttl_ms < 0:
            raise ValueError(f"default_ttl_ms must be >= 0, got {self.default_ttl_ms}")

    def _native(self) -> dict[str, Any]:
        """The options the engine takes."""
        if self.store is not None:
            raise NotImplementedError(
                "CacheConfig.store: a custom response cache store is not supported by ferrymcp yet "
                "(the default in-memory store is used when store is None)"
            )
        options: dict[str, Any] = {
            "partition": self.partition,
            "target_id": self.target_id,
            "default_ttl_ms": self.default_ttl_ms,
            "share_public": self.share_public,
        }
        if self.clock is not time.time:
            options["clock"] = self.clock
        return options
