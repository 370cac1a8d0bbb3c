"""The OAuth models at the official path (`mcp.shared.auth`): tokens, client metadata and
registrations (RFC 7591), authorization server metadata (RFC 8414), protected resource
metadata (RFC 9728), and `AuthorizationCodeResult` (what a 2.x `callback_handler` returns).

Plain records on `WireModel` (pydantic is not a dependency) whose JSON keys are the field
names as the OAuth RFCs spell them (snake_case, unlike MCP's camelCase). They validate
nothing beyond the required fields: the engine checks what the protocol needs (issuer,
resource, PKCE support) where it uses the values.
"""

from __future__ import annotations

from typing import Any, Literal

from ferrymcp._wire import WireModel

JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
"""RFC 7523 section 2.1: the grant of SEP-990's identity assertion (an ID-JAG)."""


class _OAuthModel(WireModel):
    """A `WireModel` whose wire names are the field names (OAuth's snake_case)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._wire = {name: name for name in cls._fields}
        cls._lookup = {name: name for name in cls._fields}


class OAuthToken(_OAuthModel):
    """A token response (RFC 6749 section 5.1)."""

    access_token: str
    token_type: Literal["Bearer"] = "Bearer"
    expires_in: int | None = None
    scope: str | None = None
    refresh_token: str | None = None

    def __init__(self, **data: Any) -> None:
        # As the official model: `bearer` in any case is read as `Bearer` (RFC 6750).
        if isinstance(data.get("token_type"), str) and data["token_type"].lower() == "bearer":
            data["token_type"] = "Bearer"
        super().__init__(**data)


class AuthorizationCodeResult(_OAuthModel):
    """What the redirect carried back: the code, the `state` and the RFC 9207 `iss`."""

    code: str
    state: str | None = None
    iss: str | None = None


class InvalidScopeError(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


class InvalidRedirectUriError(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


class OAuthClientMetadataBase(_OAuthModel):
    response_types: list[str] = ["code"]
    scope: str | None = None
    client_name: str | None = None
    client_uri: Any = None
    logo_uri: Any = None
    contacts: list[str] | None = None
    tos_uri: Any = None
    policy_uri: Any = None
    jwks_uri: Any = None
    jwks: Any = None
    software_id: str | None = None
    software_version: str | None = None


class OAuthClientMetadata(OAuthClientMetadataBase):
    """The metadata a client registers with (RFC 7591 section 2)."""

    redirect_uris: list[Any] | None
    token_endpoint_auth_method: str | None = None
    grant_types: list[str] = ["authorization_code", "refresh_token"]
    application_type: Literal["web", "native"] = "native"


class OAuthClientInformationFull(OAuthClientMetadataBase):
    """A registration: the metadata and what the authorization server issued (RFC 7591
    section 3.2.1)."""

    redirect_uris: list[Any] | None = None
    token_endpoint_auth_method: str | None = None
    grant_types: list[str] = ["authorization_code", "refresh_token"]
    application_type: str | None = None
    client_id: str
    client_secret: str | None = None
    client_id_issued_at: int | None = None
    client_secret_expires_at: int | None = None
    issuer: str | None = None


class OAuthMetadata(_OAuthModel):
    """Authorization server metadata (RFC 8414 section 2)."""

    issuer: Any
    authorization_endpoint: Any
    token_endpoint: Any
    registration_endpoint: Any = None
    scopes_supported: list[str] | None = None
    response_types_supported: list[str] = ["code"]
    response_modes_supported: list[str] | None = None
    grant_types_supported: list[str] | None = None
    token_endpoint_auth_methods_supported: list[str] | None = None
    token_endpoint_auth_signing_alg_values_supported: list[str] | None = None
    service_documentation: Any = None
    ui_locales_supported: list[str] | None = None
    op_policy_uri: Any = None
    op_tos_uri: Any = None
    revocation_endpoint: Any = None
    revocation_endpoint_auth_methods_supported: list[str] | None = None
    revocation_endpoint_auth_signing_alg_values_supported: list[str] | None = None
    introspection_endpoint: Any = None
    introspection_endpoint_auth_methods_supported: list[str] | None = None
    introspection_endpoint_auth_signing_alg_values_supported: list[str] | None = None
    code_challenge_methods_supported: list[str] | None = None
    client_id_metadata_document_supported: bool | None = None
    authorization_response_iss_parameter_supported: bool | None = None
    authorization_grant_profiles_supported: list[str] | None = None


class ProtectedResourceMetadata(_OAuthModel):
    """Protected resource metadata (RFC 9728 section 2)."""

    resource: Any
    authorization_servers: list[Any]
    jwks_uri: Any = None
    scopes_supported: list[str] | None = None
    bearer_methods_supported: list[str] | None = ["header"]
    resource_signing_alg_values_supported: list[str] | None = None
    resource_name: str | None = None
    resource_documentation: Any = None
    resource_policy_uri: Any = None
    resource_tos_uri: Any = None
    tls_client_certificate_bound_access_tokens: bool | None = None
    authorization_details_types_supported: list[str] | None = None
    dpop_signing_alg_values_supported: list[str] | None = None
    dpop_bound_access_tokens_required: bool | None = None


__all__ = [
    "JWT_BEARER_GRANT_TYPE",
    "AuthorizationCodeResult",
    "InvalidRedirectUriError",
    "InvalidScopeError",
    "OAuthClientInformationFull",
    "OAuthClientMetadata",
    "OAuthClientMetadataBase",
    "OAuthMetadata",
    "OAuthToken",
    "ProtectedResourceMetadata",
]
