"""A ferrymcp MCP server that is its own OAuth authorization server, from an in-memory
`OAuthAuthorizationServerProvider`: `python oauth_provider_server.py PORT MODE`, MODE
`native` (`mcp.run("streamable-http")`, the engine's own HTTP server) or `asgi`
(`streamable_http_app()` under uvicorn).

The provider approves every authorization at once (the redirect carries the code), keeps
clients, codes and tokens in memory, and refuses, with a `TokenError` of its own, to
exchange a code whose scopes include `forbidden`. Registration and revocation are
enabled; the MCP endpoint requires scope `mcp`. The tool `stats` tells what the provider
did; `whoami` the scopes of the call's token.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from typing import Any

from ferrymcp.server.auth.middleware.auth_context import get_access_token
from ferrymcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from ferrymcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from ferrymcp.server.mcpserver import MCPServer
from ferrymcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(sys.argv[1])
MODE = sys.argv[2]
BASE = f"http://127.0.0.1:{PORT}"
STATS: dict[str, Any] = {"registrations": 0, "authorizations": 0, "exchanges": 0, "refreshes": 0, "revoked": []}


class Provider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        STATS["registrations"] += 1
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        STATS["authorizations"] += 1
        code = AuthorizationCode(
            code=secrets.token_urlsafe(16),
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

    async def load_authorization_code(self, client: Any, authorization_code: str) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = secrets.token_hex(16), secrets.token_hex(16)
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=int(time.time()) + 3600, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes)
        return OAuthToken(access_token=access, expires_in=3600, refresh_token=refresh, scope=" ".join(scopes))

    async def exchange_authorization_code(self, client: Any, authorization_code: AuthorizationCode) -> OAuthToken:
        if "forbidden" in authorization_code.scopes:
            raise TokenError("invalid_scope", "scope forbidden is never granted")
        STATS["exchanges"] += 1
        del self.codes[authorization_code.code]
        return self.issue(authorization_code.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: Any, refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client: Any, refresh_token: RefreshToken, scopes: list[str]) -> OAuthToken:
        STATS["refreshes"] += 1
        del self.refresh[refresh_token.token]
        return self.issue(refresh_token.client_id, scopes, None)

    async def load_access_token(self, token: str) -> AccessToken | None:
        return self.access.get(token)

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        STATS["revoked"].append(type(token).__name__)
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


provider = Provider()
server = MCPServer(
    "oauth-provider-peer",
    auth_server_provider=provider,
    auth=AuthSettings(
        issuer_url=BASE,
        resource_server_url=f"{BASE}/mcp",
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=["mcp", "notes:write", "forbidden"], default_scopes=["mcp"]
        ),
        revocation_options=RevocationOptions(enabled=True),
        required_scopes=["mcp"],
    ),
)


@server.tool()
def whoami() -> str:
    """The scopes of the token the call came with."""
    token = get_access_token()
    return " ".join(token.scopes) if token else "anonymous"


@server.tool()
def stats() -> str:
    """What the provider did so far."""
    return json.dumps(STATS)


def lowlevel() -> Any:
    import ferrymcp.types as types
    from ferrymcp.server.auth.provider import ProviderTokenVerifier
    from ferrymcp.server.lowlevel import Server

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        schema = {"type": "object"}
        return types.ListToolsResult(tools=[types.Tool(name=name, input_schema=schema) for name in ("whoami", "stats")])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text = whoami() if params.name == "whoami" else stats()
        return types.CallToolResult(content=[types.TextContent(text=text)])

    plain = Server("oauth-provider-peer", on_list_tools=list_tools, on_call_tool=call_tool)
    return plain.streamable_http_app(
        auth=server.settings.auth, token_verifier=ProviderTokenVerifier(provider), auth_server_provider=provider
    )


if MODE == "native":
    server.run("streamable-http", host="127.0.0.1", port=PORT)
elif MODE == "lowlevel":
    import uvicorn

    uvicorn.run(lowlevel(), host="127.0.0.1", port=PORT, log_level="warning")
else:
    import uvicorn

    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=PORT, log_level="warning")
