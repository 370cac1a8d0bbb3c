"""OAuth 2.1 for the HTTP transports, at the official path (`mcp.client.auth`).

`OAuthClientProvider` carries the user's storage and redirect callbacks to the engine,
which runs the MCP authorization flow (see `oauth2.py`)."""

from ferrymcp.client.auth.exceptions import OAuthFlowError, OAuthRegistrationError, OAuthTokenError
from ferrymcp.client.auth.oauth2 import OAuthClientProvider, PKCEParameters, TokenStorage
from ferrymcp.shared.auth import AuthorizationCodeResult

__all__ = [
    "AuthorizationCodeResult",
    "OAuthClientProvider",
    "OAuthFlowError",
    "OAuthRegistrationError",
    "OAuthTokenError",
    "PKCEParameters",
    "TokenStorage",
]
