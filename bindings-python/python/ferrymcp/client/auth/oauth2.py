"""`OAuthClientProvider` at the official path (`mcp.client.auth.oauth2`), with the
official signatures of 1.x and 2.x.

The official provider is an `httpx.Auth` that runs the whole OAuth flow in Python. Here
the engine runs it (discovery, registration or client ID metadata document, PKCE S256,
`resource`, scope selection, refresh, step-up, the `iss` check): the provider only carries
the user's pieces to it, as one async dispatcher (`_handle`) over the `TokenStorage`, the
`redirect_handler` and the `callback_handler`. Pass it as `auth=` of
`streamablehttp_client` / `sse_client`, or as the `auth` of the `httpx.AsyncClient` given
to 2.x's `streamable_http_client`. It subclasses `httpx.Auth` (and `httpx2.Auth`) where
installed so those clients take it, but it cannot authorize requests an httpx client sends
by itself: that is refused with an error saying so.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import inspect
import secrets
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlparse

from ferrymcp import _aio
from ferrymcp.client.auth.exceptions import OAuthFlowError
from ferrymcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from ferrymcp.shared.auth import _OAuthModel as _Model


def _auth_bases() -> tuple[type, ...]:
    bases: list[type] = []
    for name in ("httpx2", "httpx"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        bases.append(module.Auth)
    return tuple(bases) or (object,)


def _driven_by_engine(auth: object) -> str:
    name = type(auth).__name__
    return (
        f"ferrymcp's {name} is driven by ferrymcp's engine: pass it as auth= of "
        "streamablehttp_client / sse_client, or in the httpx client given to streamable_http_client; "
        "it cannot authorize requests an httpx client sends by itself"
    )


class _EngineAuth(*_auth_bases()):  # type: ignore[misc]
    """What the engine's OAuth client takes: an `httpx.Auth` (where httpx is installed, so
    httpx clients accept it) whose flow core runs, from `_engine_options()`. Its httpx
    flow is refused: it cannot authorize requests an httpx client sends by itself."""

    requires_response_body = True

    def _engine_options(self) -> dict[str, Any]:
        raise NotImplementedError

    def auth_flow(self, request: Any) -> Any:
        raise TypeError(_driven_by_engine(self))

    def sync_auth_flow(self, request: Any) -> Any:
        raise TypeError(_driven_by_engine(self))

    async def async_auth_flow(self, request: Any) -> Any:
        raise TypeError(_driven_by_engine(self))
        yield request  # an async generator, as httpx expects


class PKCEParameters(_Model):
    """A PKCE verifier and its S256 challenge (RFC 7636). The engine makes its own for
    each authorization; this is for code that builds one itself."""

    code_verifier: str
    code_challenge: str

    @classmethod
    def generate(cls) -> PKCEParameters:
        alphabet = string.ascii_letters + string.digits + "-._~"
        verifier = "".join(secrets.choice(alphabet) for _ in range(128))
        digest = hashlib.sha256(verifier.encode()).digest()
        challenge = base64.urlsafe_b64encode(digest).decode().rstrip("=")
        return cls(code_verifier=verifier, code_challenge=challenge)


class TokenStorage(Protocol):
    """Protocol for token storage implementations."""

    async def get_tokens(self) -> OAuthToken | None: ...

    async def set_tokens(self, tokens: OAuthToken) -> None: ...

    async def get_client_info(self) -> OAuthClientInformationFull | None: ...

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None: ...


def _valid_client_metadata_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme == "https" and bool(parsed.netloc) and parsed.path not in ("", "/")


def _as_dict(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return value
    dumped: dict[str, Any] = value.model_dump(mode="json", exclude_none=True)
    return dumped


@dataclass
class OAuthContext:
    """What the provider was given (the official `provider.context`); the engine keeps
    the flow's own state (tokens in use, discovered metadata, PKCE) itself."""

    server_url: str
    client_metadata: OAuthClientMetadata
    storage: TokenStorage
    redirect_handler: Callable[[str], Awaitable[None]] | None
    callback_handler: Callable[[], Awaitable[Any]] | None
    timeout: float = 300.0
    client_metadata_url: str | None = None


class OAuthClientProvider(_EngineAuth):
    """OAuth 2.1 for one MCP server (see the module doc).

    The signature is 2.x's; 1.x's `timeout` (its sixth argument, before
    `client_metadata_url`) is taken by keyword or in that position."""

    def __init__(
        self,
        server_url: str,
        client_metadata: OAuthClientMetadata,
        storage: TokenStorage,
        redirect_handler: Callable[[str], Awaitable[None]] | None = None,
        callback_handler: Callable[[], Awaitable[Any]] | None = None,
        client_metadata_url: str | None = None,
        validate_resource_url: Callable[[str, str | None], Awaitable[None]] | None = None,
        timeout: float = 300.0,
    ) -> None:
        if isinstance(client_metadata_url, (int, float)):
            # 1.x's positional order: (..., callback_handler, timeout, client_metadata_url).
            timeout, client_metadata_url = client_metadata_url, validate_resource_url
            validate_resource_url = None
        if client_metadata_url is not None and not _valid_client_metadata_url(client_metadata_url):
            raise ValueError(
                f"client_metadata_url must be a valid HTTPS URL with a non-root pathname, got: {client_metadata_url}"
            )
        if validate_resource_url is not None:
            raise NotImplementedError(
                "validate_resource_url= is not supported by ferrymcp: the engine checks that the protected "
                "resource metadata names this server (RFC 8707) and refuses a mismatch"
            )
        self.context = OAuthContext(
            server_url=server_url,
            client_metadata=client_metadata,
            storage=storage,
            redirect_handler=redirect_handler,
            callback_handler=callback_handler,
            timeout=timeout,
            client_metadata_url=client_metadata_url,
        )
        self._grant = "authorization_code"
        self._fixed_client_info: OAuthClientInformationFull | None = None

    # -- what the engine calls ------------------------------------------------------

    def _engine_options(self) -> dict[str, Any]:
        """The dict `ferrymcp._native` builds core's OAuth client from."""
        metadata = _as_dict(self.context.client_metadata) or {}
        options: dict[str, Any] = {"client_metadata": metadata, "grant": self._grant, "handler": self._handle}
        if self.context.client_metadata_url is not None:
            options["client_metadata_url"] = self.context.client_metadata_url
        return options

    async def _handle(self, operation: str, argument: Any) -> Any:
        """One of core's `OAuthHandler` operations, on the user's objects."""
        if operation == "tokens":
            return _as_dict(await self.context.storage.get_tokens())
        if operation == "save_tokens":
            await self.context.storage.set_tokens(OAuthToken.model_validate(argument))
            return None
        if operation == "client_information":
            if self._fixed_client_info is not None:
                return _as_dict(self._fixed_client_info)
            return _as_dict(await self.context.storage.get_client_info())
        if operation == "save_client_information":
            await self.context.storage.set_client_info(OAuthClientInformationFull.model_validate(argument))
            return None
        if operation == "authorize":
            return await self._authorize(argument)
        if operation == "invalidate":
            # The official TokenStorage has no way to forget; the engine replaces what it
            # invalidated (a new registration, new tokens) through the setters.
            return None
        raise OAuthFlowError(f"unknown OAuth operation {operation!r}")

    async def _authorize(self, url: str) -> dict[str, Any]:
        if self.context.redirect_handler is None:
            raise OAuthFlowError("No redirect handler provided for authorization code grant")
        if self.context.callback_handler is None:
            raise OAuthFlowError("No callback handler provided for authorization code grant")
        await self.context.redirect_handler(url)
        try:
            result = await _aio.wait_for(self.context.callback_handler(), self.context.timeout)
        except (asyncio.TimeoutError, TimeoutError) as error:
            raise OAuthFlowError(f"the authorization was not completed within {self.context.timeout} s") from error
        if isinstance(result, tuple):
            code, state = result
            result = AuthorizationCodeResult(code=code, state=state)
        if not getattr(result, "code", None):
            raise OAuthFlowError("No authorization code received")
        return {"code": result.code, "state": result.state, "iss": getattr(result, "iss", None)}


# What introspection shows is 2.x's signature (code and documentation read the parameters:
# `server_url` ... `validate_resource_url`, nothing after); 1.x's `timeout`, by keyword or
# in its sixth place, is still taken.
OAuthClientProvider.__init__.__signature__ = inspect.signature(OAuthClientProvider.__init__).replace(  # type: ignore[attr-defined]
    parameters=[p for p in inspect.signature(OAuthClientProvider.__init__).parameters.values() if p.name != "timeout"]
)


def engine_oauth(auth: Any) -> dict[str, Any] | None:
    """The engine options of `auth` (an `OAuthClientProvider` or an
    `IdentityAssertionOAuthProvider`), `None` for none; any other auth object is refused by
    name."""
    if auth is None:
        return None
    if isinstance(auth, _EngineAuth):
        return auth._engine_options()
    raise TypeError(
        f"auth={type(auth).__name__} is not supported by ferrymcp's HTTP client: it takes "
        "ferrymcp.client.auth.OAuthClientProvider (or a subclass such as ClientCredentialsOAuthProvider) "
        "or an IdentityAssertionOAuthProvider; "
        "send other credentials as headers, e.g. headers={'Authorization': 'Bearer ...'}"
    )


__all__ = ["OAuthClientProvider", "PKCEParameters", "TokenStorage"]
