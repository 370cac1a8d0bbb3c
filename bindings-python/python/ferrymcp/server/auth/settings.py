"""`AuthSettings` and its option classes, as the official `mcp.server.auth.settings`.

Plain dataclasses with the official fields and defaults (ferrymcp depends on no model
library); URLs are kept as the strings given, checked to be absolute http(s) URLs, as the
official `AnyHttpUrl` fields with `url_preserve_empty_path` keep them. Like the official
models, they take keywords only, and `issuer_url` and `resource_server_url` must be given
(the latter may be `None`: then no protected resource metadata is served).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


def _http_url(name: str, value: Any) -> str:
    text = str(value)
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{name} must be an absolute http(s) URL, got {text!r}")
    return text


@dataclass(kw_only=True)
class ClientRegistrationOptions:
    enabled: bool = False
    client_secret_expiry_seconds: int | None = None
    valid_scopes: list[str] | None = None
    default_scopes: list[str] | None = None


@dataclass(kw_only=True)
class RevocationOptions:
    enabled: bool = False


@dataclass(kw_only=True)
class AuthSettings:
    """What the server requires of bearer tokens and advertises about them."""

    issuer_url: str
    """The authorization server that issues tokens for this resource."""
    resource_server_url: str | None
    """This MCP server's URL: the resource tokens are for, and where its metadata is
    served (`/.well-known/oauth-protected-resource` + its path). `None` serves none."""
    service_documentation_url: str | None = None
    client_registration_options: ClientRegistrationOptions | None = None
    revocation_options: RevocationOptions | None = None
    required_scopes: list[str] | None = None
    identity_assertion_enabled: bool = False
    validate_token_resource: bool | None = None
    """Accept only tokens whose `AccessToken.resource` is `resource_server_url`."""

    def __post_init__(self) -> None:
        self.issuer_url = _http_url("issuer_url", self.issuer_url)
        if self.resource_server_url is not None:
            self.resource_server_url = _http_url("resource_server_url", self.resource_server_url)
        if self.service_documentation_url is not None:
            self.service_documentation_url = _http_url("service_documentation_url", self.service_documentation_url)
        if self.required_scopes is not None:
            self.required_scopes = [str(scope) for scope in self.required_scopes]
        if self.validate_token_resource and self.resource_server_url is None:
            raise ValueError("validate_token_resource requires resource_server_url")


__all__ = ["AuthSettings", "ClientRegistrationOptions", "RevocationOptions"]
