"""A ferrymcp server that requires bearer tokens, written as for the official SDK
(`token_verifier=` and `auth=AuthSettings(...)`), for test_auth.py.

Served three ways: `uvicorn --factory auth_server:standalone` (`streamable_http_app()`),
`auth_server:mounted` (that app mounted at `/api`, the host app's lifespan entering
`mcp.session_manager.run()`), and `python auth_server.py http|stdio` (the built-in
`run("streamable-http", port=0)`, or stdio). `TOKENS` is what the verifier knows (`boom` makes it raise); the tools
`whoami` (sync, on a worker thread) and `whoami_async` report what `get_access_token()`
gives them (as JSON text).
"""

import json
import sys
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Mount

from ferrymcp.server import MCPServer
from ferrymcp.server.auth.middleware.auth_context import get_access_token
from ferrymcp.server.auth.provider import AccessToken, TokenVerifier
from ferrymcp.server.auth.settings import AuthSettings

ISSUER = "https://auth.example.com"
RESOURCE = "http://127.0.0.1:8000/mcp"
REQUIRED = ["mcp"]
# Fixed instants (2100 and 2000), so the server and the tests agree on every token.
LATER, EARLIER = 4_102_444_800, 946_684_800
# token -> (client_id, scopes, expires_at, subject, claims)
TOKENS: dict[str, tuple[str, list[str], int | None, str | None, dict[str, Any] | None]] = {
    "good": ("alice", ["mcp", "read"], LATER, None, None),
    "other": ("bob", ["mcp"], None, "user-7", {"iss": ISSUER}),
    "narrow": ("carol", ["read"], LATER, None, None),
    "stale": ("dave", ["mcp"], EARLIER, None, None),
    "aimed": ("erin", ["mcp"], None, None, None),
}
# The RFC 8707 resource a token was issued for (the others name none): `aimed` is for
# this server, spelled with the scheme in capitals, the default-less port and a trailing slash.
RESOURCES = {"aimed": "HTTP://127.0.0.1:8000/mcp/"}


class Verifier(TokenVerifier):
    async def verify_token(self, token: str) -> AccessToken | None:
        if token == "boom":
            raise RuntimeError("the introspection endpoint is down")
        known = TOKENS.get(token)
        if known is None:
            return None
        client_id, scopes, expires_at, subject, claims = known
        resource = RESOURCES.get(token)
        return AccessToken(
            token=token,
            client_id=client_id,
            scopes=scopes,
            expires_at=expires_at,
            resource=resource,
            subject=subject,
            claims=claims,
        )


def report() -> dict[str, Any] | None:
    token = get_access_token()
    if token is None:
        return None
    return {
        "token": token.token,
        "client_id": token.client_id,
        "scopes": token.scopes,
        "expires_at": token.expires_at,
        "subject": token.subject,
        "claims": token.claims,
    }


def build(validate_token_resource: bool | None = None) -> MCPServer:
    auth = AuthSettings(
        issuer_url=ISSUER,
        resource_server_url=RESOURCE,
        required_scopes=REQUIRED,
        validate_token_resource=validate_token_resource,
    )
    mcp = MCPServer("auth-peer", version="1.0.0", token_verifier=Verifier(), auth=auth)

    @mcp.tool()
    def whoami() -> str:
        """The request's token, as a sync tool sees it (JSON)."""
        return json.dumps(report())

    @mcp.tool()
    async def whoami_async() -> str:
        """The request's token, as an async tool sees it (JSON)."""
        return json.dumps(report())

    return mcp


def standalone() -> object:
    return build().streamable_http_app()


def audience_checked() -> object:
    """`validate_token_resource=True`: only tokens issued for `RESOURCE` are accepted."""
    return build(validate_token_resource=True).streamable_http_app()


def mounted() -> Starlette:
    mcp = build()
    app = mcp.streamable_http_app()

    import contextlib
    from collections.abc import AsyncIterator

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    return Starlette(routes=[Mount("/api", app=app)], lifespan=lifespan)


if __name__ == "__main__":
    if sys.argv[1:] == ["stdio"]:
        build().run()
    else:
        build().run("streamable-http", port=0)
