"""Tokens and verifiers, as the official `mcp.server.auth.provider`.

`TokenVerifier` is the official protocol (`async verify_token(token) -> AccessToken |
None`); `AccessToken` has the official fields. ferrymcp's engine calls the verifier for
every request to the MCP endpoint and applies the policy itself (required scopes, expiry,
audience), so a verifier only says what a token is. An `OAuthAuthorizationServerProvider`
(with its codes, refresh tokens and errors) is what the engine's authorization server
calls (`MCPServer(auth_server_provider=...)`, `routes.create_auth_routes`); raising
`AuthorizeError`, `TokenError` or `RegistrationError` answers the request with that OAuth
error, as in the official SDK.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, runtime_checkable
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit


@dataclass
class AccessToken:
    """A verified bearer token."""

    token: str
    client_id: str
    scopes: list[str]
    expires_at: int | None = None
    """Seconds since the epoch; `None` never expires."""
    resource: str | None = None
    """The RFC 8707 resource the token was issued for."""
    subject: str | None = None
    claims: dict[str, Any] | None = None


@dataclass
class IdentityAssertionParams:
    """A SEP-990 identity-assertion token request (the RFC 7523 jwt-bearer grant), as the
    official `exchange_identity_assertion` hook gets it: the ID-JAG, and the scopes and
    RFC 8707 resource the client asked for."""

    assertion: str
    scopes: list[str] | None = None
    resource: str | None = None


@dataclass
class AuthorizationCode:
    code: str
    scopes: list[str]
    expires_at: float
    client_id: str
    code_challenge: str
    redirect_uri: str
    redirect_uri_provided_explicitly: bool
    resource: str | None = None
    subject: str | None = None


@dataclass
class RefreshToken:
    token: str
    client_id: str
    scopes: list[str]
    expires_at: int | None = None
    subject: str | None = None


@dataclass
class AuthorizationParams:
    state: str | None
    scopes: list[str] | None
    code_challenge: str
    redirect_uri: str
    redirect_uri_provided_explicitly: bool
    resource: str | None = None


RegistrationErrorCode = Literal[
    "invalid_redirect_uri", "invalid_client_metadata", "invalid_software_statement", "unapproved_software_statement"
]
AuthorizationErrorCode = Literal[
    "invalid_request",
    "unauthorized_client",
    "access_denied",
    "unsupported_response_type",
    "invalid_scope",
    "server_error",
    "temporarily_unavailable",
    "invalid_target",
]
TokenErrorCode = Literal[
    "invalid_request",
    "invalid_client",
    "invalid_grant",
    "unauthorized_client",
    "unsupported_grant_type",
    "invalid_scope",
    "invalid_target",
]


@dataclass(frozen=True)
class RegistrationError(Exception):
    error: RegistrationErrorCode
    error_description: str | None = None


@dataclass(frozen=True)
class AuthorizeError(Exception):
    error: AuthorizationErrorCode
    error_description: str | None = None


@dataclass(frozen=True)
class TokenError(Exception):
    error: TokenErrorCode
    error_description: str | None = None


@runtime_checkable
class TokenVerifier(Protocol):
    """Says what a bearer token is: its `AccessToken`, or `None` for a token it does not accept."""

    async def verify_token(self, token: str) -> AccessToken | None: ...


AuthorizationCodeT = TypeVar("AuthorizationCodeT", bound=AuthorizationCode)
RefreshTokenT = TypeVar("RefreshTokenT", bound=RefreshToken)
AccessTokenT = TypeVar("AccessTokenT", bound=AccessToken)


class OAuthAuthorizationServerProvider(Protocol, Generic[AuthorizationCodeT, RefreshTokenT, AccessTokenT]):
    """The official authorization-server provider's shape, generic over the application's
    code, refresh-token and access-token classes as there; the engine's authorization
    server calls it."""

    async def get_client(self, client_id: str) -> Any: ...
    async def register_client(self, client_info: Any) -> None: ...
    async def authorize(self, client: Any, params: AuthorizationParams) -> str: ...
    async def load_authorization_code(self, client: Any, authorization_code: str) -> AuthorizationCodeT | None: ...
    async def exchange_authorization_code(self, client: Any, authorization_code: AuthorizationCodeT) -> Any: ...
    async def load_refresh_token(self, client: Any, refresh_token: str) -> RefreshTokenT | None: ...
    async def exchange_refresh_token(self, client: Any, refresh_token: RefreshTokenT, scopes: list[str]) -> Any: ...
    async def load_access_token(self, token: str) -> AccessTokenT | None: ...
    async def revoke_token(self, token: AccessTokenT | RefreshTokenT) -> None: ...

    async def exchange_identity_assertion(self, client: Any, params: IdentityAssertionParams) -> Any:
        """SEP-990's hook: validate the ID-JAG and issue a token. As the official default,
        every request is refused as an unsupported grant type unless overridden."""
        raise TokenError("unsupported_grant_type", "The JWT bearer grant is not supported by this authorization server")


class ProviderTokenVerifier:
    """A `TokenVerifier` over a provider's `load_access_token`."""

    def __init__(self, provider: OAuthAuthorizationServerProvider[Any, Any, Any]) -> None:
        self.provider = provider

    async def verify_token(self, token: str) -> AccessToken | None:
        loaded: AccessToken | None = await self.provider.load_access_token(token)
        return loaded


def construct_redirect_uri(redirect_uri_base: str, **params: str | None) -> str:
    """`redirect_uri_base` with `params` (those not `None`) added to its query."""
    parts = urlsplit(redirect_uri_base)
    query = [(key, value) for key, values in parse_qs(parts.query).items() for value in values]
    query.extend((key, value) for key, value in params.items() if value is not None)
    return urlunsplit(parts._replace(query=urlencode(query)))


__all__ = [
    "AccessToken",
    "AuthorizationCode",
    "AuthorizationParams",
    "AuthorizeError",
    "IdentityAssertionParams",
    "OAuthAuthorizationServerProvider",
    "ProviderTokenVerifier",
    "RefreshToken",
    "RegistrationError",
    "TokenError",
    "TokenVerifier",
    "construct_redirect_uri",
]
