"""The official Python SDK (PyPI `mcp`) as an OAuth-protected MCP server (a resource
server: `token_verifier=` + `AuthSettings`, its protected resource metadata and bearer
check) beside a minimal authorization server for the client-credentials grant, which the
SDK's own authorization-server routes do not offer: `python oauth_client_credentials.py
PORT`. For test_oauth_client.py.

The authorization server publishes RFC 8414 metadata and a token endpoint that issues a
token to one client (`CLIENT_ID` / `CLIENT_SECRET`) authenticated with
`client_secret_basic` or `client_secret_post`; `stats` tells how the client authenticated
and what it asked for.
"""

import base64
import json
import secrets
import sys
import time
from urllib.parse import unquote_plus

import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from starlette.requests import Request
from starlette.responses import JSONResponse

PORT = int(sys.argv[1])
BASE = f"http://127.0.0.1:{PORT}"
CLIENT_ID, CLIENT_SECRET = "machine", "s3cret:with/odd chars"
TOKENS: dict[str, AccessToken] = {}
STATS: dict[str, list[dict[str, str]]] = {"token_requests": []}


class Verifier:
    async def verify_token(self, token: str) -> AccessToken | None:
        return TOKENS.get(token)


server = MCPServer(
    "oauth-client-credentials-peer",
    token_verifier=Verifier(),
    auth=AuthSettings(issuer_url=BASE, resource_server_url=f"{BASE}/mcp", required_scopes=["mcp"]),
)


@server.tool()
def whoami() -> str:
    """The client and scopes of the token the call came with."""
    token = get_access_token()
    return f"{token.client_id} {' '.join(token.scopes)}" if token else "anonymous"


@server.tool()
def stats() -> str:
    return json.dumps(STATS)


@server.custom_route("/.well-known/oauth-authorization-server", methods=["GET"])
async def metadata(_request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "issuer": BASE,
            "authorization_endpoint": f"{BASE}/authorize",
            "token_endpoint": f"{BASE}/token",
            "grant_types_supported": ["client_credentials"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "response_types_supported": ["code"],
        }
    )


def credentials(request: Request, form: dict[str, str]) -> tuple[str, str | None, str | None]:
    """How the client authenticated, its id and its secret (RFC 6749 section 2.3.1)."""
    header = request.headers.get("authorization", "")
    if header.startswith("Basic "):
        client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
        return "client_secret_basic", unquote_plus(client_id), unquote_plus(secret)
    return "client_secret_post", form.get("client_id"), form.get("client_secret")


@server.custom_route("/token", methods=["POST"])
async def token(request: Request) -> JSONResponse:
    form = {key: str(value) for key, value in (await request.form()).items()}
    method, client_id, secret = credentials(request, form)
    STATS["token_requests"].append({"method": method, **{k: v for k, v in form.items() if k != "client_secret"}})
    if form.get("grant_type") != "client_credentials":
        return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
    if (client_id, secret) != (CLIENT_ID, CLIENT_SECRET):
        return JSONResponse({"error": "invalid_client", "error_description": "unknown client"}, status_code=401)
    scopes = form.get("scope", "mcp").split()
    access = secrets.token_hex(16)
    TOKENS[access] = AccessToken(
        token=access,
        client_id=client_id,
        scopes=scopes,
        expires_at=int(time.time()) + 3600,
        resource=form.get("resource"),
    )
    return JSONResponse({"access_token": access, "token_type": "Bearer", "expires_in": 3600, "scope": " ".join(scopes)})


uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=PORT, log_level="warning")
