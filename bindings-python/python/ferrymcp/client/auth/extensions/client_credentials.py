"""The client-credentials extension at the official path
(`mcp.client.auth.extensions.client_credentials`): machine-to-machine OAuth with no user
(`io.modelcontextprotocol/oauth-client-credentials`).

`ClientCredentialsOAuthProvider` hands the engine its fixed registration and asks for the
client-credentials grant; the engine authenticates at the token endpoint as the
registration says (`client_secret_basic` or `client_secret_post`). `private_key_jwt`
(RFC 7523) is not in the engine yet: `PrivateKeyJWTOAuthProvider` and the helpers that
feed it raise `NotImplementedError` saying so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from ferrymcp.client.auth.oauth2 import OAuthClientProvider, TokenStorage
from ferrymcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

_NO_JWT = (
    "private_key_jwt client authentication (RFC 7523) is not supported by ferrymcp yet; "
    "use ClientCredentialsOAuthProvider with client_secret_basic or client_secret_post"
)


class ClientCredentialsOAuthProvider(OAuthClientProvider):
    """OAuth with the client-credentials grant and a client ID and secret."""

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        client_id: str,
        client_secret: str,
        token_endpoint_auth_method: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic",
        scope: str | None = None,
    ) -> None:
        metadata = OAuthClientMetadata(
            redirect_uris=None,
            grant_types=["client_credentials"],
            token_endpoint_auth_method=token_endpoint_auth_method,
            scope=scope,
        )
        super().__init__(server_url, metadata, storage, None, None)
        self._grant = "client_credentials"
        self._fixed_client_info = OAuthClientInformationFull(
            redirect_uris=None,
            client_id=client_id,
            client_secret=client_secret,
            grant_types=["client_credentials"],
            token_endpoint_auth_method=token_endpoint_auth_method,
            scope=scope,
        )


def static_assertion_provider(token: str) -> Callable[[str], Awaitable[str]]:
    raise NotImplementedError(_NO_JWT)


class SignedJWTParameters:
    def __init__(self, **_data: Any) -> None:
        raise NotImplementedError(_NO_JWT)


class PrivateKeyJWTOAuthProvider(OAuthClientProvider):
    """Client credentials with `private_key_jwt`: not supported (see the module doc)."""

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        client_id: str,
        assertion_provider: Callable[[str], Awaitable[str]],
        scope: str | None = None,
    ) -> None:
        raise NotImplementedError(_NO_JWT)


__all__ = [
    "ClientCredentialsOAuthProvider",
    "PrivateKeyJWTOAuthProvider",
    "SignedJWTParameters",
    "static_assertion_provider",
]
