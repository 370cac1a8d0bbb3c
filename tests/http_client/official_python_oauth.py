"""The official Python SDK (PyPI `mcp`) as an OAuth-protected MCP server that is its own
authorization server, for the OAuth tests of ferrymcp's clients:
`python official_python_oauth.py PORT [TOKEN_SECONDS]`.

The routes are the SDK's (protected resource metadata, authorization server metadata,
dynamic registration, authorize, token, the bearer check); only the provider behind them,
which the SDK leaves to the application, is written here: clients, codes and tokens in
memory, every authorization approved at once (the redirect carries the code), access
tokens living TOKEN_SECONDS (default 3600) with refresh tokens. Scope `mcp` is required
for everything; the tool `write_note` also needs `notes:write`, and a call without it is
answered 403 `insufficient_scope` (the step-up challenge of the MCP specification) by a
small ASGI layer in front of the SDK's app, as a resource server would. `stats` tells
what the authorization server did.
"""

import json
import secrets
import sys
import time

import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(sys.argv[1])
TOKEN_SECONDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3600
BASE = f"http://127.0.0.1:{PORT}"
STATS = {"registrations": 0, "authorizations": 0, "code_exchanges": 0, "refreshes": 0, "scopes": []}


class Provider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id):
        return self.clients.get(client_id)

    async def register_client(self, client_info):
        STATS["registrations"] += 1
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams):
        STATS["authorizations"] += 1
        STATS["scopes"].append(params.scopes or [])
        code = AuthorizationCode(
            code=secrets.token_hex(16),
            client_id=client.client_id,
            scopes=params.scopes or ["mcp"],
            expires_at=time.time() + 300,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        self.codes[code.code] = code
        return construct_redirect_uri(str(params.redirect_uri), code=code.code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        return self.codes.get(authorization_code)

    def tokens(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access = secrets.token_hex(16)
        refresh = secrets.token_hex(16)
        self.access[access] = AccessToken(
            token=access,
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + TOKEN_SECONDS,
            resource=resource,
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes)
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=TOKEN_SECONDS,
            refresh_token=refresh,
            scope=" ".join(scopes),
        )

    async def exchange_authorization_code(self, client, authorization_code):
        STATS["code_exchanges"] += 1
        del self.codes[authorization_code.code]
        code = authorization_code
        return self.tokens(code.client_id, code.scopes, code.resource)

    async def load_refresh_token(self, client, refresh_token):
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        STATS["refreshes"] += 1
        del self.refresh[refresh_token.token]
        return self.tokens(refresh_token.client_id, scopes or refresh_token.scopes, None)

    async def load_access_token(self, token):
        return self.access.get(token)

    async def revoke_token(self, token):
        self.access.pop(token.token, None)


provider = Provider()
server = MCPServer(
    "oauth-peer",
    auth_server_provider=provider,
    auth=AuthSettings(
        issuer_url=BASE,
        resource_server_url=f"{BASE}/mcp",
        client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=["mcp", "notes:write"]),
        required_scopes=["mcp"],
    ),
)


@server.tool()
def whoami() -> str:
    """The scopes of the token the call came with."""
    token = get_access_token()
    return " ".join(token.scopes) if token else "anonymous"


@server.tool()
def write_note(text: str) -> str:
    """Needs the scope notes:write."""
    return f"noted: {text}"


@server.tool()
def stats() -> str:
    """What the authorization server did so far."""
    return json.dumps(STATS)


def step_up(app):
    """403 insufficient_scope for a call of write_note with a token without notes:write."""

    async def guarded(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/mcp":
            return await app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            message = json.loads(body)
        except ValueError:
            message = {}
        params = message.get("params") if isinstance(message, dict) else None
        if isinstance(params, dict) and message.get("method") == "tools/call" and params.get("name") == "write_note":
            headers = dict(scope["headers"])
            bearer = headers.get(b"authorization", b"").decode().removeprefix("Bearer ")
            token = provider.access.get(bearer)
            if token is not None and "notes:write" not in token.scopes:
                challenge = (
                    f'Bearer error="insufficient_scope", scope="mcp notes:write", '
                    f'resource_metadata="{BASE}/.well-known/oauth-protected-resource/mcp"'
                )
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

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    return guarded


uvicorn.run(step_up(server.streamable_http_app()), host="127.0.0.1", port=PORT, log_level="warning")
