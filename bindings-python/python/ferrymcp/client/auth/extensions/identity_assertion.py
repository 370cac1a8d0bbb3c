"""SEP-990's identity-assertion client at the official path
(`mcp.client.auth.extensions.identity_assertion`): a pre-registered confidential client
presents an ID-JAG (an Identity Assertion JWT Authorization Grant, which the enterprise
identity provider issued) to the MCP authorization server under the RFC 7523 jwt-bearer
grant, and gets an access token.

The engine runs the grant (`Grant::IdentityAssertion` of core's OAuth client): the
authorization server is the configured `issuer`, its metadata read from that issuer's
well-known URL and checked (the `issuer` it names, character for character; the token
endpoint on its origin), the MCP server never asked which authorization server to use; then
the `assertion_provider` is awaited for a fresh ID-JAG and the token request is sent, the
client authenticated with its secret (`client_secret_post` or `client_secret_basic`). A 401
runs it again, a 403 `insufficient_scope` with the union of `scope` and the challenged
scopes; no refresh token is used. This class only carries the user's pieces to the engine.
Obtaining the ID-JAG (the RFC 8693 token exchange at the identity provider) is the
application's, in `assertion_provider`, as in the official SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from ferrymcp.client.auth.oauth2 import TokenStorage, _as_dict, _EngineAuth
from ferrymcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull, OAuthToken
from ferrymcp.shared.auth_utils import resource_url_from_server_url

_SECRET_METHODS = ("client_secret_basic", "client_secret_post")


class IdentityAssertionOAuthProvider(_EngineAuth):
    """OAuth with the SEP-990 identity-assertion grant against a configured authorization
    server (see the module doc). An `httpx.Auth` (and `httpx2.Auth`) where installed, for the
    `auth=` of the httpx client given to `streamable_http_client`, or 1.x's
    `streamablehttp_client(url, auth=)`."""

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        client_id: str,
        client_secret: str,
        issuer: str,
        assertion_provider: Callable[[str, str], Awaitable[str]],
        scope: str | None = None,
        token_endpoint_auth_method: Literal["client_secret_basic", "client_secret_post"] = "client_secret_post",
    ) -> None:
        if not client_secret:
            raise ValueError("client_secret is required: SEP-990 mandates a confidential client")
        if not issuer:
            raise ValueError("issuer is required: the authorization server is configuration, not discovery")
        if token_endpoint_auth_method not in _SECRET_METHODS:
            raise ValueError(
                f"token_endpoint_auth_method={token_endpoint_auth_method!r} is not supported: the identity-assertion "
                "grant takes client_secret_basic or client_secret_post (private_key_jwt is not supported)"
            )
        if not callable(assertion_provider):
            raise TypeError("assertion_provider must be an async callable taking (audience, resource)")
        self._server_url = str(server_url)
        self._resource = resource_url_from_server_url(self._server_url)
        self._storage = storage
        self._issuer = issuer
        self._assertion_provider = assertion_provider
        self._scope = scope
        self._client = OAuthClientInformationFull(
            client_id=client_id,
            client_secret=client_secret,
            redirect_uris=None,
            grant_types=[JWT_BEARER_GRANT_TYPE],
            token_endpoint_auth_method=token_endpoint_auth_method,
            issuer=issuer,
        )

    def _engine_options(self) -> dict[str, Any]:
        """The dict `ferrymcp._native` builds core's OAuth client from."""
        metadata: dict[str, Any] = {"grant_types": [JWT_BEARER_GRANT_TYPE], "redirect_uris": None}
        if self._scope:
            metadata["scope"] = self._scope
        return {
            "client_metadata": metadata,
            "grant": "identity_assertion",
            "issuer": self._issuer,
            "server_url": self._server_url,
            "handler": self._handle,
        }

    async def _handle(self, operation: str, argument: Any) -> Any:
        """One of core's `OAuthHandler` operations, on the user's objects."""
        if operation == "tokens":
            return _as_dict(await self._storage.get_tokens())
        if operation == "save_tokens":
            await self._storage.set_tokens(OAuthToken.model_validate(argument))
            return None
        if operation == "client_information":
            return _as_dict(self._client)
        if operation == "assertion":
            audience, resource = argument
            assertion = await self._assertion_provider(audience, resource)
            if not isinstance(assertion, str):
                raise TypeError(f"assertion_provider returned {type(assertion).__name__}, not the ID-JAG as a str")
            return assertion
        # Nothing to register or forget: the registration is this fixed client, and the
        # official TokenStorage has no way to forget tokens.
        return None


__all__ = ["IdentityAssertionOAuthProvider"]
