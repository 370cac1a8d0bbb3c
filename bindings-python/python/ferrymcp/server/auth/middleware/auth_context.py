"""`get_access_token()`: the bearer token of the request a handler serves, as the official
`mcp.server.auth.middleware.auth_context`.

The engine checks the token and hands it to the handler's native context; the tool,
resource and prompt wrappers bind it to `auth_context_var` around the user's function
(`bind_token`, `unbind_token`), so `get_access_token()` works anywhere inside it, in
async and sync handlers alike (a sync handler runs on a worker thread, inside the
binding). Over stdio, or on an endpoint without auth, it is `None`.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ferrymcp.server.auth.provider import AccessToken


class AuthenticatedUser:
    """The holder of an accepted token (the official middleware's user object)."""

    def __init__(self, auth_info: AccessToken) -> None:
        self.access_token = auth_info
        self.scopes = auth_info.scopes
        self.username = auth_info.client_id
        self.display_name = auth_info.client_id
        self.is_authenticated = True


auth_context_var: contextvars.ContextVar[AuthenticatedUser | None] = contextvars.ContextVar(
    "auth_context", default=None
)


def get_access_token() -> AccessToken | None:
    """The access token of the request being served, or `None` without one."""
    user = auth_context_var.get()
    return user.access_token if user is not None else None


def access_token(info: dict[str, Any]) -> AccessToken:
    """An `AccessToken` from the engine's `AuthInfo` (`subject` and `claims` ride in `extra`)."""
    from ferrymcp.server.auth.provider import AccessToken

    extra = info.get("extra") or {}
    return AccessToken(
        token=info["token"],
        client_id=info["clientId"],
        scopes=list(info.get("scopes", ())),
        expires_at=info.get("expiresAt"),
        resource=info.get("resource"),
        subject=extra.get("subject"),
        claims=extra.get("claims"),
    )


def bind_token(native_ctx: Any) -> contextvars.Token[AuthenticatedUser | None] | None:
    """Makes the request's token (if any) what `get_access_token()` returns, until
    `unbind_token` (the handler wrappers call both around the user's function)."""
    info = native_ctx.auth_info() if native_ctx is not None else None
    return None if info is None else auth_context_var.set(AuthenticatedUser(access_token(info)))


def unbind_token(token: contextvars.Token[AuthenticatedUser | None] | None) -> None:
    if token is not None:
        auth_context_var.reset(token)


def __getattr__(name: str) -> Any:
    # `AccessToken` is importable from here, as from the official module; it loads on first
    # use (every tool wrapper imports this module, most servers never see a token).
    if name == "AccessToken":
        from ferrymcp.server.auth.provider import AccessToken

        return AccessToken
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AuthenticatedUser", "auth_context_var", "get_access_token"]
