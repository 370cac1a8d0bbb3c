"""The OAuth client's exceptions at the official path (`mcp.client.auth.exceptions`).

The engine marks a failed authorization with the step that failed; `ferrymcp._native`
raises the class of that step: `OAuthRegistrationError` (client registration),
`OAuthTokenError` (the token endpoint), `OAuthFlowError` (anything else: discovery, the
redirect, the host's callbacks)."""


class OAuthFlowError(Exception):
    """Base exception for OAuth flow errors."""


class OAuthTokenError(OAuthFlowError):
    """Raised when token operations fail."""


class OAuthRegistrationError(OAuthFlowError):
    """Raised when client registration fails."""


__all__ = ["OAuthFlowError", "OAuthRegistrationError", "OAuthTokenError"]
