"""SEP-990's identity-assertion client (`ferrymcp.client.auth.extensions.identity_assertion`),
driven by the engine, against the official Python SDK as the authorization server.

`peers/identity_assertion_official.py` is the official SDK's authorization server with
`identity_assertion_enabled=True` (its metadata, its token endpoint, which authenticates the
client and gates the grant) co-hosted with its bearer-gated MCP server, a real process on
a free port; its `exchange_identity_assertion` verifies the ID-JAGs this test signs as the
stand-in identity provider (PyJWT, HS256, the claims and `typ` of the ID-JAG profile). A
second, tiny authorization server in this process (`http.server` on a thread) serves
metadata that must be refused: a token endpoint on another origin, or none at all.

Needs the native module, `mcp`, httpx2, PyJWT and uvicorn.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")
jwt = pytest.importorskip("jwt")
pytest.importorskip("uvicorn")

from test_oauth_client import Listening, Storage  # noqa: E402

from ferrymcp import Client  # noqa: E402
from ferrymcp.client.auth import OAuthClientProvider, OAuthFlowError, OAuthTokenError  # noqa: E402
from ferrymcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider  # noqa: E402
from ferrymcp.client.session import ClientSession  # noqa: E402
from ferrymcp.client.streamable_http import streamable_http_client, streamablehttp_client  # noqa: E402
from ferrymcp.server.auth.provider import IdentityAssertionParams, TokenError  # noqa: E402
from ferrymcp.shared.auth import JWT_BEARER_GRANT_TYPE  # noqa: E402

PEER = Path(__file__).resolve().parent / "peers" / "identity_assertion_official.py"
IDP_ISSUER = "https://idp.example.com"
IDP_KEY = "the-stand-in-idp-signing-key-for-ferrymcp-tests"


@pytest.fixture
def official() -> Iterator[Listening]:
    """A fresh peer for each test, so that its request log is the test's own."""
    server = Listening(PEER)
    yield server
    server.stop()


class IdP:
    """The stand-in enterprise identity provider: the `assertion_provider`, signing a fresh
    ID-JAG for each exchange and remembering what it was asked."""

    def __init__(self, client_id: str = "finance-agent", scope: str = "mcp notes:write") -> None:
        self.client_id, self.scope = client_id, scope
        self.asked: list[tuple[str, str]] = []

    async def __call__(self, audience: str, resource: str) -> str:
        self.asked.append((audience, resource))
        now = int(time.time())
        claims = {
            "iss": IDP_ISSUER,
            "sub": "alice@example.com",
            "aud": audience,
            "client_id": self.client_id,
            "resource": resource,
            "scope": self.scope,
            "jti": str(uuid.uuid4()),
            "iat": now,
            "exp": now + 300,
        }
        return str(jwt.encode(claims, IDP_KEY, algorithm="HS256", headers={"typ": "oauth-id-jag+jwt"}))


def issuer(server: Listening) -> str:
    """The issuer the official authorization server's metadata names (with the slash its
    URL type adds)."""
    return f"http://127.0.0.1:{server.port}/"


def provider(
    server: Listening, idp: IdP, storage: Storage | None = None, client_id: str = "finance-agent", **options: Any
) -> IdentityAssertionOAuthProvider:
    options.setdefault("issuer", issuer(server))
    options.setdefault("client_secret", f"{client_id}-secret")
    return IdentityAssertionOAuthProvider(
        server_url=server.url,
        storage=storage or Storage(),
        client_id=client_id,
        assertion_provider=idp,
        **options,
    )


async def requests(client: Any) -> list[dict[str, Any]]:
    """The requests the peer saw so far, without the call of `log` itself."""
    result = await client.call_tool("log", {})
    entries: list[dict[str, Any]] = json.loads(result.content[0].text)
    return entries[:-1]


async def text(client: Any, tool: str, arguments: dict[str, Any] | None = None) -> str:
    result = await client.call_tool(tool, arguments or {})
    return str(result.content[0].text)


async def test_the_whole_grant_is_one_token_request_v2(official: Listening) -> None:
    idp, storage = IdP(), Storage()
    auth = provider(official, idp, storage, scope="mcp")
    async with httpx2.AsyncClient(auth=auth, follow_redirects=True) as http:
        async with Client(streamable_http_client(official.url, http_client=http)) as client:
            assert await text(client, "whoami") == "alice@example.com finance-agent mcp"
            log = await requests(client)
    assert idp.asked == [(issuer(official), official.url)]
    assert storage.tokens is not None and storage.tokens.scope == "mcp"
    assert storage.tokens.refresh_token is None
    # The request that drew the 401, the configured issuer's metadata, one token request;
    # then MCP with the bearer. No protected resource metadata, no registration, no authorize.
    assert log[0] == {"method": "POST", "path": "/mcp", "bearer": False}
    others = [entry for entry in log if entry["path"] != "/mcp"]
    assert [(e["method"], e["path"]) for e in others] == [
        ("GET", "/.well-known/oauth-authorization-server"),
        ("POST", "/token"),
    ]
    token = others[1]
    assert token["basic"] is False
    assert token["form"] == {
        "grant_type": JWT_BEARER_GRANT_TYPE,
        "assertion": token["form"]["assertion"],
        "client_id": "finance-agent",
        "resource": official.url,
        "scope": "mcp",
    }
    assert jwt.get_unverified_header(token["form"]["assertion"]) == {"alg": "HS256", "typ": "oauth-id-jag+jwt"}
    after = log[log.index(token) + 1 :]
    assert after and all(entry["path"] == "/mcp" and entry["bearer"] for entry in after), after


async def test_client_secret_basic_through_the_v1_transport(official: Listening) -> None:
    idp = IdP(client_id="basic-agent")
    auth = provider(official, idp, client_id="basic-agent", token_endpoint_auth_method="client_secret_basic")
    async with (
        streamablehttp_client(official.url, auth=auth) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        assert await text(session, "whoami") == "alice@example.com basic-agent mcp notes:write"
        log = await requests(session)
    token = next(entry for entry in log if entry["path"] == "/token")
    assert token["basic"] is True
    # No `scope` configured: none asked for, and the authorization server grants the ID-JAG's.
    assert sorted(token["form"]) == ["assertion", "client_id", "grant_type", "resource"]


async def test_a_403_insufficient_scope_exchanges_a_fresh_assertion_for_the_union(official: Listening) -> None:
    idp = IdP()
    async with httpx2.AsyncClient(auth=provider(official, idp, scope="mcp")) as http:
        async with Client(streamable_http_client(official.url, http_client=http)) as client:
            assert await text(client, "whoami") == "alice@example.com finance-agent mcp"
            assert await text(client, "write_note", {"text": "hi"}) == "noted: hi"
            assert await text(client, "whoami") == "alice@example.com finance-agent mcp notes:write"
    # A fresh ID-JAG for each exchange: the authorization server accepts each one once.
    assert len(idp.asked) == 2


async def test_stored_tokens_are_used_without_an_exchange(official: Listening) -> None:
    storage = Storage()
    async with httpx2.AsyncClient(auth=provider(official, IdP(), storage)) as http:
        async with Client(streamable_http_client(official.url, http_client=http)) as client:
            await text(client, "whoami")
    idp = IdP()
    async with httpx2.AsyncClient(auth=provider(official, idp, storage)) as http:
        async with Client(streamable_http_client(official.url, http_client=http)) as client:
            assert await text(client, "whoami") == "alice@example.com finance-agent mcp notes:write"
    assert idp.asked == []


async def test_an_issuer_that_differs_by_a_slash_is_refused_before_anything_is_sent(official: Listening) -> None:
    idp = IdP()
    auth = provider(official, idp, issuer=issuer(official).rstrip("/"))
    with pytest.raises(OAuthFlowError, match="Authorization server metadata issuer mismatch"):
        async with httpx2.AsyncClient(auth=auth) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass
    assert idp.asked == []


async def test_a_refused_assertion_is_an_oauth_token_error(official: Listening) -> None:
    auth = provider(official, IdP(client_id="someone-else"))
    with pytest.raises(OAuthTokenError, match="invalid_grant: the assertion was issued to a different client"):
        async with httpx2.AsyncClient(auth=auth) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass
    wrong = provider(official, IdP(), client_secret="wrong")
    with pytest.raises(OAuthTokenError, match="invalid_client"):
        async with httpx2.AsyncClient(auth=wrong) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass


async def test_an_assertion_provider_that_returns_no_string_is_an_oauth_flow_error(official: Listening) -> None:
    async def nothing(audience: str, resource: str) -> Any:
        return None

    auth = IdentityAssertionOAuthProvider(
        official.url, Storage(), "finance-agent", "finance-agent-secret", issuer(official), nothing
    )
    with pytest.raises(OAuthFlowError, match="assertion_provider returned NoneType"):
        async with httpx2.AsyncClient(auth=auth) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass


class Metadata(http.server.BaseHTTPRequestHandler):
    """An authorization server's metadata endpoint that names `token_endpoint` (or nothing)."""

    token_endpoint: str | None = None
    paths: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.paths.append(self.path)
        if self.token_endpoint is None or self.path != "/.well-known/oauth-authorization-server":
            self.send_response(404)
            self.end_headers()
            return
        host, port = self.server.server_address[:2]
        body = json.dumps(
            {
                "issuer": f"http://{host}:{port}/",
                "authorization_endpoint": f"http://{host}:{port}/authorize",
                "token_endpoint": self.token_endpoint,
                "response_types_supported": ["code"],
            }
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def metadata_server() -> Iterator[tuple[str, type[Metadata]]]:
    handler = type("Handler", (Metadata,), {"paths": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", handler
    server.shutdown()
    server.server_close()


async def test_a_token_endpoint_off_the_issuer_origin_is_refused(
    official: Listening, metadata_server: tuple[str, type[Metadata]]
) -> None:
    configured, handler = metadata_server
    handler.token_endpoint = f"http://127.0.0.1:{official.port}/token"
    idp = IdP()
    with pytest.raises(OAuthFlowError, match=f"Token endpoint .* is not on the configured issuer origin {configured}"):
        async with httpx2.AsyncClient(auth=provider(official, idp, issuer=configured)) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass
    assert idp.asked == []
    assert handler.paths == ["/.well-known/oauth-authorization-server"]


async def test_an_issuer_without_metadata_is_refused(
    official: Listening, metadata_server: tuple[str, type[Metadata]]
) -> None:
    configured, handler = metadata_server
    with pytest.raises(OAuthFlowError, match=f"No authorization server metadata at configured issuer {configured}"):
        async with httpx2.AsyncClient(auth=provider(official, IdP(), issuer=configured)) as http:
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass
    assert handler.paths == ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]


async def test_the_constructor_refuses_what_the_grant_cannot_do() -> None:
    url, idp = "http://127.0.0.1:1/mcp", IdP()
    with pytest.raises(ValueError, match="client_secret is required"):
        IdentityAssertionOAuthProvider(url, Storage(), "c", "", "https://as.example/", idp)
    with pytest.raises(ValueError, match="issuer is required"):
        IdentityAssertionOAuthProvider(url, Storage(), "c", "s", "", idp)
    with pytest.raises(ValueError, match="token_endpoint_auth_method='private_key_jwt' is not supported"):
        IdentityAssertionOAuthProvider(url, Storage(), "c", "s", "https://as.example/", idp, None, "private_key_jwt")  # type: ignore[arg-type]
    auth = IdentityAssertionOAuthProvider(url, Storage(), "c", "s", "https://as.example/", idp)
    assert isinstance(auth, httpx2.Auth)
    assert not isinstance(auth, OAuthClientProvider)
    with pytest.raises(TypeError, match="IdentityAssertionOAuthProvider is driven by ferrymcp's engine"):
        async with httpx2.AsyncClient(auth=auth) as http:
            await http.get(url)


async def test_the_server_side_names_of_the_hook() -> None:
    params = IdentityAssertionParams(assertion="x")
    assert (params.scopes, params.resource) == (None, None)
    from ferrymcp.server.auth.provider import OAuthAuthorizationServerProvider

    class Plain(OAuthAuthorizationServerProvider[Any, Any, Any]):
        pass

    with pytest.raises(TokenError) as refused:
        await Plain().exchange_identity_assertion(None, params)
    assert refused.value.error == "unsupported_grant_type"


def test_the_authorization_server_half_is_served() -> None:
    """The official story's servers build the authorization server with
    `auth_server_provider=` (`MCPServer`, and the low-level app with a verifier beside it),
    or mount `create_auth_routes`: all three are served by the engine (the flows are
    driven in test_auth_server.py), with the official routes."""
    from ferrymcp.server.auth.provider import OAuthAuthorizationServerProvider, ProviderTokenVerifier
    from ferrymcp.server.auth.routes import create_auth_routes
    from ferrymcp.server.auth.settings import AuthSettings
    from ferrymcp.server.lowlevel import Server
    from ferrymcp.server.mcpserver import MCPServer

    class Plain(OAuthAuthorizationServerProvider[Any, Any, Any]):
        pass

    settings = AuthSettings(
        issuer_url="http://127.0.0.1:1/", resource_server_url="http://127.0.0.1:1/mcp", identity_assertion_enabled=True
    )
    paths = {
        route.path for route in MCPServer("x", auth=settings, auth_server_provider=Plain()).streamable_http_app().routes
    }
    assert {"/mcp", "/.well-known/oauth-authorization-server", "/authorize", "/token"} <= paths
    app = Server("x").streamable_http_app(
        auth=settings, token_verifier=ProviderTokenVerifier(Plain()), auth_server_provider=Plain()
    )
    assert "/token" in {route.path for route in app.routes}
    routes = create_auth_routes(Plain(), issuer_url="http://127.0.0.1:1/", identity_assertion_enabled=True)
    assert [(route.path, sorted(route.methods or [])) for route in routes] == [
        ("/.well-known/oauth-authorization-server", ["GET", "HEAD", "OPTIONS"]),
        ("/authorize", ["GET", "HEAD", "POST"]),
        ("/token", ["OPTIONS", "POST"]),
    ]
    with pytest.raises(ValueError, match="Issuer URL must be HTTPS"):
        create_auth_routes(Plain(), issuer_url="http://auth.example.com/")
