"""The official `mcp.server.auth.routes`: the Starlette routes of an OAuth authorization
server (`create_auth_routes`), of the RFC 9728 protected-resource metadata
(`create_protected_resource_routes`) and their CORS wrapper (`cors_middleware`).

`create_auth_routes` returns real Starlette `Route`s (the official paths and methods);
each hands its request to the engine's authorization server, which applies every rule
(validation, client authentication, PKCE, grants, error shapes, CORS, `no-store`) and
calls the provider (see `ferrymcp.server.auth._bridge`). The protected-resource side is
served by the engine itself when a server is given `token_verifier=` and
`auth=AuthSettings(...)`, so `create_protected_resource_routes` raises a
`NotImplementedError` that says what to use; `cors_middleware` wraps a handler of the
application's own in Starlette's CORS middleware, as there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from ferrymcp.server.auth._bridge import server_options
from ferrymcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions

__all__ = ["cors_middleware", "create_auth_routes", "create_protected_resource_routes"]


class _AuthEndpoint:
    """One route's ASGI app: the request goes to the engine's authorization server."""

    def __init__(self, native: Any, path: str) -> None:
        self._native = native
        self._path = path

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                break
        query = scope.get("query_string", b"").decode("latin-1")
        headers = [(bytes(name), bytes(value)) for name, value in scope.get("headers", [])]
        status, answer_headers, content = await self._native.handle(
            scope["method"], self._path, query, headers, bytes(body)
        )
        answer_headers.append((b"content-length", str(len(content)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": answer_headers})
        await send({"type": "http.response.body", "body": content})


def create_auth_routes(
    provider: Any,
    issuer_url: Any,
    service_documentation_url: Any = None,
    client_registration_options: ClientRegistrationOptions | None = None,
    revocation_options: RevocationOptions | None = None,
    identity_assertion_enabled: bool = False,
) -> list[Any]:
    """The authorization server's routes: its RFC 8414 metadata, `/authorize`, `/token`,
    and `/register` and `/revoke` when their options enable them."""
    from starlette.routing import Route

    from ferrymcp._native import NativeAuthServer

    native = NativeAuthServer(
        server_options(
            provider,
            issuer_url,
            service_documentation_url,
            client_registration_options,
            revocation_options,
            identity_assertion_enabled,
        )
    )
    return [Route(path, endpoint=_AuthEndpoint(native, path), methods=methods) for path, methods in native.routes()]


def create_protected_resource_routes(*args: Any, **kwargs: Any) -> NoReturn:
    raise NotImplementedError(
        "create_protected_resource_routes is not supported: the engine serves the RFC 9728 metadata "
        "itself when the server is given token_verifier= and auth=AuthSettings(resource_server_url=...)"
    )


def cors_middleware(handler: Callable[[Any], Any], allow_methods: list[str]) -> Any:
    """A Starlette request handler of the application's own (an introspection endpoint
    beside the authorization server, say) as an ASGI app that answers CORS as the routes
    of `create_auth_routes` do: every origin, `allow_methods`, the `mcp-protocol-version`
    header. Needs Starlette, as there."""
    from starlette.middleware.cors import CORSMiddleware
    from starlette.routing import request_response

    return CORSMiddleware(
        app=request_response(handler),
        allow_origins="*",
        allow_methods=allow_methods,
        allow_headers=["mcp-protocol-version"],
    )
