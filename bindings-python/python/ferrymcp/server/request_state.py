"""`RequestStateSecurity` (`mcp.server.request_state`): how a server protects the
`requestState` of its 2026-07-28 multi-round requests, as the engine applies it.

The engine seals the state with HMAC-SHA256 under `keys[0]` and opens it under any of
`keys` (rotation: `[old, new]`, then `[new, old]`, then `[new]` after one `ttl`), so every
replica given the same keys can take a retry; it binds the state to the request's method
and target and, when the request carried a bearer token, to that token's client, issuer
and subject, and lets it expire after `ttl`. Without `request_state_security=` the key is
`FERRYMCP_STATE_KEY` from the environment, else one drawn for this process
(`RequestStateSecurity.ephemeral()`). `codec=` replaces the keys with the application's
own sealing (a KMS-held key, encryption): the engine still writes and checks the envelope
inside (method, target, principal, expiry) and calls `codec.seal(bytes) -> str` and
`codec.unseal(str) -> bytes` (which must raise, `InvalidRequestState` by convention, for
any token it did not mint). The state is also bound to an audience, the service that
sealed it: `audience=`, else the server's name (so servers sharing keys but not a name do
not take each other's retries). What the engine does not do is refused by name: a custom
`bind_principal`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class InvalidRequestState(Exception):
    """A `requestState` that does not open (tampered, expired, or another principal's)."""


class RequestStateCodec(Protocol):
    """An application's sealing of request state: `unseal(seal(payload)) == payload`, and
    `unseal` raises for any token it did not mint unmodified. Both are synchronous and run
    on the request's path: cache key material rather than calling a KMS per token."""

    def seal(self, payload: bytes) -> str: ...

    def unseal(self, token: str) -> bytes: ...


def authenticated_principal(ctx: Any) -> str | None:
    """The default principal binding: the request's bearer token's identity (the engine
    applies it; this function only names the policy)."""
    raise NotImplementedError("the engine binds request state to the authenticated principal itself")


class RequestStateSecurity:
    """The keys and lifetime of sealed request state (see the module doc)."""

    def __init__(
        self,
        *,
        keys: Sequence[bytes | bytearray | str] | None = None,
        codec: RequestStateCodec | None = None,
        ttl: float = 600.0,
        bind_principal: Callable[[Any], str | None] | None = authenticated_principal,
        audience: str | None = None,
    ) -> None:
        if (keys is None) == (codec is None):
            raise ValueError("RequestStateSecurity takes exactly one of keys= or codec=")
        if codec is not None and not (
            callable(getattr(codec, "seal", None)) and callable(getattr(codec, "unseal", None))
        ):
            raise TypeError(
                f"RequestStateSecurity(codec=...) needs seal(payload: bytes) -> str and unseal(token: str) -> bytes; "
                f"{type(codec).__name__} has not both"
            )
        if not (math.isfinite(ttl) and ttl > 0):
            raise ValueError(f"request-state ttl must be a positive finite number, got {ttl!r}")
        if bind_principal is not authenticated_principal:
            raise NotImplementedError(
                "RequestStateSecurity(bind_principal=...) is not supported by ferrymcp: the engine always binds "
                "request state to the bearer token's client, issuer and subject when there is one"
            )
        for i, key in enumerate(keys or []):
            if not isinstance(key, (bytes, bytearray, str)):
                # As the official codec: never coerce (bytes(32) would be an all-zero key).
                raise TypeError(
                    f"request-state keys must be bytes, bytearray, or str; keys[{i}] is {type(key).__name__}"
                )
        ring = [key.encode() if isinstance(key, str) else bytes(key) for key in keys or []]
        if codec is None and not ring:
            raise ValueError("RequestStateSecurity(keys=...) needs at least one key")
        if codec is None:
            from ferrymcp import _native  # (here: `import ferrymcp` does not load the engine)

            _native.check_state_keys(ring)
        self.keys = ring
        self.codec = codec
        self.ttl = ttl
        self.bind_principal = bind_principal
        self.audience = audience

    @classmethod
    def ephemeral(cls, *, ttl: float = 600.0, audience: str | None = None) -> RequestStateSecurity:
        """A key drawn now and held only by this process (what a server uses by default
        when `FERRYMCP_STATE_KEY` is not set)."""
        return cls(keys=[os.urandom(32)], ttl=ttl, audience=audience)

    def _engine_options(self) -> dict[str, Any]:
        if self.codec is not None:
            return {"state_codec": self.codec, "state_ttl": float(self.ttl)}
        return {"state_keys_hex": [key.hex() for key in self.keys], "state_ttl": float(self.ttl)}


__all__ = [
    "InvalidRequestState",
    "RequestStateCodec",
    "RequestStateSecurity",
    "authenticated_principal",
]
