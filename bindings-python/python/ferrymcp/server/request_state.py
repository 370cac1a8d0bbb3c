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
from collections.abc import Awaitable, Callable, Sequence
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


class AESGCMRequestStateCodec:
    """A codec that encrypts as well as seals (`RequestStateSecurity(codec=...)`, the
    official built-in codec): AES-256-GCM under a key derived from each secret with
    HKDF-SHA256, `keys[0]` sealing and every key opening (rotation). A token is `v1.` and
    the unpadded base64url of a 4-byte key fingerprint, a 12-byte random nonce and the
    ciphertext, with the prefix and fingerprint authenticated alongside. Needs the
    `cryptography` package; the engine's own sealing (`keys=`) signs without encrypting."""

    _PREFIX = "v1."

    def __init__(self, keys: Sequence[bytes | bytearray | str]) -> None:
        try:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            from cryptography.hazmat.primitives.hashes import SHA256
            from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        except ImportError as error:
            raise ImportError(
                "AESGCMRequestStateCodec needs the cryptography package (pip install cryptography)"
            ) from error
        import hashlib

        for i, key in enumerate(keys):
            if not isinstance(key, (bytes, bytearray, str)):
                raise TypeError(
                    f"request-state keys must be bytes, bytearray, or str; keys[{i}] is {type(key).__name__}"
                )
        secrets = [key.encode() if isinstance(key, str) else bytes(key) for key in keys]
        if not secrets:
            raise ValueError("AESGCMRequestStateCodec requires at least one key")
        from ferrymcp import _native

        _native.check_state_keys(secrets)  # the engine's rule for a key's strength
        self._ring: dict[bytes, Any] = {}
        self._sealing = b""
        for i, secret in enumerate(secrets):
            derived = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"mcp/request-state/v1/aes-256-gcm").derive(
                secret
            )
            fingerprint = hashlib.sha256(b"mcp/request-state/v1/kid:" + derived).digest()[:4]
            if fingerprint in self._ring:
                raise ValueError(f"keys[{i}] duplicates an earlier ring key")
            self._ring[fingerprint] = AESGCM(derived)
            if i == 0:
                self._sealing = fingerprint

    def seal(self, payload: bytes) -> str:
        import base64

        nonce = os.urandom(12)
        fingerprint = self._sealing
        sealed = self._ring[fingerprint].encrypt(nonce, payload, self._PREFIX.encode() + fingerprint)
        return self._PREFIX + base64.urlsafe_b64encode(fingerprint + nonce + sealed).decode().rstrip("=")

    def unseal(self, token: str) -> bytes:
        import base64
        import binascii

        if not token.startswith(self._PREFIX):
            raise InvalidRequestState("malformed")
        text = token[len(self._PREFIX) :]
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError) as error:
            raise InvalidRequestState("malformed") from error
        # Only the canonical encoding opens (no second spelling of one token).
        if base64.urlsafe_b64encode(raw).decode().rstrip("=") != text or len(raw) < 4 + 12 + 16:
            raise InvalidRequestState("malformed")
        fingerprint, nonce, sealed = raw[:4], raw[4:16], raw[16:]
        aead = self._ring.get(fingerprint)
        if aead is None:
            raise InvalidRequestState("unknown key")
        from cryptography.exceptions import InvalidTag

        try:
            payload: bytes = aead.decrypt(nonce, sealed, self._PREFIX.encode() + fingerprint)
        except InvalidTag:
            raise InvalidRequestState("seal") from None
        return payload


class RequestStateBoundary:
    """The request-state policy as an entry of a server's middleware list (the official
    `RequestStateBoundary(security, default_audience=...)`): the engine opens inbound
    `requestState` and seals the handlers' under `security`, bound to its audience, else
    `default_audience` (`None`: audience-free). `MCPServer`'s list holds one by default
    (its `request_state_security=`, its name); a low-level `Server` seals once one is
    appended, and taking it off a list leaves the handlers' state unsealed, as there.

    The server reads its list's boundary when it starts serving and the engine does the
    work, before and after the chain: middleware sees `requestState` as on the wire. A
    boundary the engine is not applying (appended after the server started) refuses to
    run rather than let state through unsealed.
    """

    _security: RequestStateSecurity | None
    _audience: str | None

    def __init__(self, security: RequestStateSecurity, *, default_audience: str | None) -> None:
        if not isinstance(security, RequestStateSecurity):
            raise TypeError(f"RequestStateBoundary takes a RequestStateSecurity, not {type(security).__name__}")
        self._security = security
        self._audience = security.audience if security.audience is not None else default_audience

    @classmethod
    def _engine_default(
        cls, security: RequestStateSecurity | None, *, default_audience: str | None
    ) -> RequestStateBoundary:
        """`security`, or the engine's default key (`FERRYMCP_STATE_KEY`, else one drawn
        for this process) when `None`."""
        boundary = cls.__new__(cls)
        boundary._security = security
        audience = security.audience if security is not None else None
        boundary._audience = audience if audience is not None else default_audience
        return boundary

    def _engine_options(self) -> dict[str, Any]:
        options = self._security._engine_options() if self._security is not None else {}
        options["seal_handler_state"] = True
        if self._audience is not None:
            options["state_audience"] = self._audience
        return options

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        raise RuntimeError(
            "this RequestStateBoundary is not applied by the server: the engine takes the boundary on the "
            "middleware list when the server starts serving (put it there before)"
        )


__all__ = [
    "AESGCMRequestStateCodec",
    "InvalidRequestState",
    "RequestStateBoundary",
    "RequestStateCodec",
    "RequestStateSecurity",
    "authenticated_principal",
]
