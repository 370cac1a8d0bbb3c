"""An `OAuthAuthorizationServerProvider` as the engine calls it.

The engine serves the authorization server (every endpoint's rules are there, in core);
this module only converts: it wraps the provider in one async `dispatch(operation, *args)`
that turns the engine's JSON into the official objects (`AuthorizationParams`,
`IdentityAssertionParams`, `OAuthClientInformationFull`), the provider's objects into the
JSON fields the engine reads, and the provider's `AuthorizeError`, `TokenError` and
`RegistrationError` into outcomes the engine answers. Each result is `(kind, json,
object)`: `kind` is `"ok"` or the error's class; `object` is what the provider returned (a
client, a code, a token), which the engine hands back unchanged to the calls that take it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ferrymcp.server.auth.provider import (
    AuthorizationParams,
    AuthorizeError,
    IdentityAssertionParams,
    RegistrationError,
    TokenError,
)
from ferrymcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions

Outcome = tuple[str, Any, Any]


def _dump(value: Any) -> Any:
    """A provider's model as JSON (pydantic or ferrymcp models, dataclasses, dicts)."""
    if value is None:
        return None
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return value
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"the provider returned {type(value).__name__}, not a model")


def _client(client: Any) -> dict[str, Any] | None:
    if client is None:
        return None
    fields = ("client_secret", "client_secret_expires_at", "token_endpoint_auth_method", "scope")
    record: dict[str, Any] = {"client_id": str(client.client_id)}
    for name in fields:
        value = getattr(client, name, None)
        if value is not None:
            record[name] = value
    uris = getattr(client, "redirect_uris", None)
    if uris is not None:
        record["redirect_uris"] = [str(uri) for uri in uris]
    grants = getattr(client, "grant_types", None)
    if grants is not None:
        record["grant_types"] = [str(grant) for grant in grants]
    return record


def _code(code: Any) -> dict[str, Any] | None:
    if code is None:
        return None
    return {
        "client_id": code.client_id,
        "expires_at": float(code.expires_at),
        "code_challenge": code.code_challenge,
        "redirect_uri": str(code.redirect_uri),
        "redirect_uri_provided_explicitly": bool(code.redirect_uri_provided_explicitly),
    }


def _token(token: Any) -> dict[str, Any] | None:
    if token is None:
        return None
    expires_at = getattr(token, "expires_at", None)
    return {
        "client_id": token.client_id,
        "scopes": list(getattr(token, "scopes", None) or []),
        "expires_at": None if expires_at is None else float(expires_at),
    }


def _error(kind: str, error: Any) -> Outcome:
    return (kind, {"error": error.error, "error_description": error.error_description}, None)


def dispatcher(provider: Any) -> Callable[..., Awaitable[Outcome]]:
    """The provider as the engine's one async entry point."""

    async def dispatch(operation: str, *args: Any) -> Outcome:
        try:
            return await _call(provider, operation, args)
        except AuthorizeError as error:
            return _error("authorize", error)
        except TokenError as error:
            return _error("token", error)
        except RegistrationError as error:
            return _error("registration", error)

    return dispatch


async def _call(provider: Any, operation: str, args: tuple[Any, ...]) -> Outcome:
    if operation == "get_client":
        client = await provider.get_client(args[0])
        return ("ok", _client(client), client)
    if operation == "register_client":
        from ferrymcp.shared.auth import OAuthClientInformationFull

        info = OAuthClientInformationFull.model_validate(args[0])
        await provider.register_client(info)
        return ("ok", _dump(info), None)
    if operation == "authorize":
        client, params = args
        url = await provider.authorize(client, AuthorizationParams(**params))
        return ("ok", str(url), None)
    if operation == "load_authorization_code":
        code = await provider.load_authorization_code(*args)
        return ("ok", _code(code), code)
    if operation == "load_refresh_token":
        token = await provider.load_refresh_token(*args)
        return ("ok", _token(token), token)
    if operation == "load_access_token":
        token = await provider.load_access_token(*args)
        return ("ok", _token(token), token)
    if operation in ("exchange_authorization_code", "exchange_refresh_token"):
        tokens = await getattr(provider, operation)(*args)
        return ("ok", _dump(tokens), None)
    if operation == "exchange_identity_assertion":
        client, params = args
        tokens = await provider.exchange_identity_assertion(client, IdentityAssertionParams(**params))
        return ("ok", _dump(tokens), None)
    if operation == "revoke_token":
        await provider.revoke_token(args[0])
        return ("ok", None, None)
    raise ValueError(f"unknown provider operation {operation!r}")


def server_options(
    provider: Any,
    issuer_url: Any,
    service_documentation_url: Any = None,
    client_registration_options: ClientRegistrationOptions | None = None,
    revocation_options: RevocationOptions | None = None,
    identity_assertion_enabled: bool = False,
) -> dict[str, Any]:
    """The engine's authorization-server options (`auth_server.rs`' `auth_server` reads them)."""
    registration = client_registration_options or ClientRegistrationOptions()
    revocation = revocation_options or RevocationOptions()
    options: dict[str, Any] = {
        "dispatch": dispatcher(provider),
        "issuer_url": str(issuer_url),
        "service_documentation_url": None if service_documentation_url is None else str(service_documentation_url),
        "registration_enabled": bool(registration.enabled),
        "client_secret_expiry_seconds": registration.client_secret_expiry_seconds,
        "valid_scopes": None if registration.valid_scopes is None else list(registration.valid_scopes),
        "default_scopes": None if registration.default_scopes is None else list(registration.default_scopes),
        "revocation_enabled": bool(revocation.enabled),
        "identity_assertion_enabled": bool(identity_assertion_enabled),
    }
    return {key: value for key, value in options.items() if value is not None}
