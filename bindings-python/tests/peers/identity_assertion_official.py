"""The official Python SDK (PyPI `mcp`) as a SEP-990 authorization server co-hosted with a
bearer-gated MCP server: `python identity_assertion_official.py PORT`. For
test_identity_assertion.py.

The routes are the SDK's (authorization server metadata advertising the jwt-bearer grant and
the ID-JAG profile with `identity_assertion_enabled=True`, the token endpoint that
authenticates the client and gates the grant, the protected resource metadata and bearer
check); only the provider's `exchange_identity_assertion`, which the SDK leaves to the
application, is written here, as the SDK's documentation writes it: the ID-JAG verified
with PyJWT against the stand-in identity provider's HMAC key (`typ`, `iss`, `aud` = this
issuer, `client_id` = the authenticated client, `resource`, one use per `jti`), the token
bound to the ID-JAG's subject and resource, its scopes those asked for that the ID-JAG
grants. Two pre-registered confidential clients: `finance-agent` (secret in the body) and
`basic-agent` (HTTP Basic). The tool `write_note` also needs `notes:write` (403
`insufficient_scope` otherwise, from a small ASGI layer, as a resource server answers a
step-up); `log` tells every request the app saw, with the token requests' forms (secrets
left out).
"""

import json
import secrets
import sys
import time
from typing import Any
from urllib.parse import parse_qsl

import jwt
import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    IdentityAssertionParams,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    TokenError,
)
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl

PORT = int(sys.argv[1])
BASE = f"http://127.0.0.1:{PORT}"
MCP_URL = f"{BASE}/mcp"
IDP_ISSUER = "https://idp.example.com"
IDP_KEY = "the-stand-in-idp-signing-key-for-ferrymcp-tests"
LOG: list[dict[str, Any]] = []

CLIENTS = {
    client_id: OAuthClientInformationFull(
        client_id=client_id,
        client_secret=f"{client_id}-secret",
        redirect_uris=None,
        grant_types=[JWT_BEARER_GRANT_TYPE],
        token_endpoint_auth_method=method,
    )
    for client_id, method in (("finance-agent", "client_secret_post"), ("basic-agent", "client_secret_basic"))
}


class Provider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    def __init__(self) -> None:
        self.access: dict[str, AccessToken] = {}
        self.seen: set[str] = set()
        self.issuer = ""

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return CLIENTS.get(client_id)

    async def load_access_token(self, token: str) -> AccessToken | None:
        return self.access.get(token)

    async def exchange_identity_assertion(
        self, client: OAuthClientInformationFull, params: IdentityAssertionParams
    ) -> OAuthToken:
        try:
            header = jwt.get_unverified_header(params.assertion)
            claims = jwt.decode(
                params.assertion,
                IDP_KEY,
                algorithms=["HS256"],
                issuer=IDP_ISSUER,
                audience=self.issuer,
                options={"require": ["iss", "sub", "aud", "exp", "iat", "jti", "client_id", "resource", "scope"]},
            )
        except jwt.InvalidTokenError as error:
            raise TokenError("invalid_grant", "the assertion did not verify") from error
        if header.get("typ") != "oauth-id-jag+jwt":
            raise TokenError("invalid_grant", "the assertion is not an ID-JAG")
        if claims["client_id"] != client.client_id:
            raise TokenError("invalid_grant", "the assertion was issued to a different client")
        if claims["resource"] != MCP_URL:
            raise TokenError("invalid_target", "the assertion is for a resource this server does not serve")
        if claims["jti"] in self.seen:
            raise TokenError("invalid_grant", "the assertion has already been used")
        self.seen.add(claims["jti"])
        allowed = claims["scope"].split()
        scopes = [scope for scope in params.scopes or allowed if scope in allowed]
        access = secrets.token_hex(16)
        self.access[access] = AccessToken(
            token=access,
            client_id=claims["client_id"],
            scopes=scopes,
            expires_at=int(time.time()) + 300,
            resource=claims["resource"],
            subject=claims["sub"],
        )
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=300, scope=" ".join(scopes))

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        raise AuthorizeError("unauthorized_client", "this authorization server only accepts ID-JAGs")

    async def load_authorization_code(self, client: OAuthClientInformationFull, authorization_code: str) -> None:
        return None

    async def exchange_authorization_code(self, client: Any, authorization_code: Any) -> OAuthToken:
        raise TokenError("invalid_grant", "this authorization server only accepts ID-JAGs")

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> None:
        return None

    async def exchange_refresh_token(self, client: Any, refresh_token: Any, scopes: list[str]) -> OAuthToken:
        raise TokenError("invalid_grant", "this authorization server only accepts ID-JAGs")


provider = Provider()
# As the official story builds it: a URL object, so the issuer its metadata names has a slash.
settings = AuthSettings(
    issuer_url=AnyHttpUrl(BASE), resource_server_url=MCP_URL, required_scopes=["mcp"], identity_assertion_enabled=True
)
provider.issuer = str(settings.issuer_url)
server = MCPServer("identity-assertion-peer", auth=settings, auth_server_provider=provider)


@server.tool()
def whoami() -> str:
    """The subject, client and scopes of the token the call came with."""
    token = get_access_token()
    assert token is not None
    return f"{token.subject} {token.client_id} {' '.join(token.scopes)}"


@server.tool()
def write_note(text: str) -> str:
    """Needs the scope notes:write."""
    return f"noted: {text}"


@server.tool()
def log() -> str:
    """Every request the app saw so far."""
    return json.dumps(LOG)


def recorded(app: Any) -> Any:
    """Logs each request (method, path, a token request's form without the secret, whether
    it came with a bearer), and answers 403 insufficient_scope to a call of write_note whose
    token lacks notes:write."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        headers = dict(scope["headers"])
        authorization = headers.get(b"authorization", b"").decode()
        entry: dict[str, Any] = {"method": scope["method"], "path": scope["path"]}
        if scope["path"] == "/token":
            form = dict(parse_qsl(body.decode()))
            form.pop("client_secret", None)
            entry["form"] = form
            entry["basic"] = authorization.startswith("Basic ")
        else:
            entry["bearer"] = authorization.startswith("Bearer ")
        LOG.append(entry)
        try:
            message = json.loads(body) if scope["path"] == "/mcp" and body else {}
        except ValueError:
            message = {}
        params = message.get("params") if isinstance(message, dict) else None
        if isinstance(params, dict) and message.get("method") == "tools/call" and params.get("name") == "write_note":
            token = provider.access.get(authorization.removeprefix("Bearer "))
            if token is not None and "notes:write" not in token.scopes:
                challenge = 'Bearer error="insufficient_scope", scope="mcp notes:write"'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [(b"www-authenticate", challenge.encode()), (b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": b'{"error": "insufficient_scope"}'})
                return None
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            message: dict[str, Any] = await receive()
            return message

        return await app(scope, replay, send)

    return guarded


uvicorn.run(recorded(server.streamable_http_app()), host="127.0.0.1", port=PORT, log_level="warning")
