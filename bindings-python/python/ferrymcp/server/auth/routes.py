"""The official `mcp.server.auth.routes`: the Starlette routes of an OAuth authorization
server (`create_auth_routes`), of the RFC 9728 protected-resource metadata
(`create_protected_resource_routes`) and their CORS wrapper (`cors_middleware`).

ferrymcp does not build these as routes for the program to mount. The protected-resource
side is served by the engine itself when a server is given `token_verifier=` and
`auth=AuthSettings(...)` (the metadata document, 401/403 with `WWW-Authenticate`); an
authorization server is not served (`auth_server_provider=` is refused: run an external
one). Each function raises a `NotImplementedError` that says which of these to use.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["cors_middleware", "create_auth_routes", "create_protected_resource_routes"]


def create_auth_routes(*args: Any, **kwargs: Any) -> NoReturn:
    raise NotImplementedError(
        "create_auth_routes is not supported: ferrymcp does not serve an OAuth authorization server; "
        "run an external one and give the MCP server token_verifier= and auth=AuthSettings(...)"
    )


def create_protected_resource_routes(*args: Any, **kwargs: Any) -> NoReturn:
    raise NotImplementedError(
        "create_protected_resource_routes is not supported: the engine serves the RFC 9728 metadata "
        "itself when the server is given token_verifier= and auth=AuthSettings(resource_server_url=...)"
    )


def cors_middleware(*args: Any, **kwargs: Any) -> NoReturn:
    raise NotImplementedError(
        "cors_middleware is not supported: it wraps the routes of create_auth_routes, which ferrymcp "
        "does not build (see ferrymcp.server.auth.routes)"
    )
