"""The OAuth authorization server the engine serves from an `OAuthAuthorizationServerProvider`
(`MCPServer(auth_server_provider=..., auth=AuthSettings(...))`), over real HTTP.

The server is `peers/oauth_provider_server.py` in a child process, served both ways a
ferrymcp server serves HTTP: the engine's own server (`run("streamable-http")`) and the
ASGI app (`streamable_http_app()`) under uvicorn, and the low-level `Server`'s app with a
`ProviderTokenVerifier` beside the provider. It is driven through the whole flow
(discovery, dynamic registration, the authorization redirect with PKCE, the token,
a refresh, a revocation, an authenticated `tools/call`) by ferrymcp's own OAuth client and
by the official SDK's (PyPI `mcp`), and refused hostile requests made by hand with httpx2:
a wrong PKCE verifier, an unknown client, an unregistered redirect URI, a grant the client
was not registered for, and the provider's own `TokenError`.

Needs the native module, `mcp`, httpx2 and uvicorn.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")
pytest.importorskip("uvicorn")

from serving import Listening

from ferrymcp import Client
from ferrymcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from ferrymcp.client.streamable_http import streamable_http_client
from ferrymcp.shared.auth import OAuthClientMetadata, OAuthToken

PEER = Path(__file__).resolve().parent / "peers" / "oauth_provider_server.py"
REDIRECT = "http://127.0.0.1:1/callback"


@pytest.fixture(scope="module", params=["native", "asgi", "lowlevel"])
def peer(request: pytest.FixtureRequest) -> Iterator[Listening]:
    server = Listening(PEER, request.param)
    yield server
    server.stop()


class Storage:
    """An in-memory `TokenStorage`."""

    def __init__(self) -> None:
        self.tokens: Any = None
        self.client_info: Any = None

    async def get_tokens(self) -> Any:
        return self.tokens

    async def set_tokens(self, tokens: Any) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> Any:
        return self.client_info

    async def set_client_info(self, client_info: Any) -> None:
        self.client_info = client_info


class Browser:
    """`redirect_handler` and `callback_handler`: the user's browser, approving at once."""

    def __init__(self, result: type) -> None:
        self.urls: list[str] = []
        self.result = result

    async def redirect(self, url: str) -> None:
        self.urls.append(url)

    async def callback(self) -> Any:
        async with httpx2.AsyncClient() as http:
            answer = await http.get(self.urls[-1])
        assert answer.status_code == 302, answer.text
        assert answer.headers["cache-control"] == "no-store"
        query = parse_qs(urlparse(answer.headers["location"]).query)
        return self.result(code=query["code"][0], state=query["state"][0])


async def stats(client: Any) -> dict[str, Any]:
    result = await client.call_tool("stats", {})
    answer: dict[str, Any] = json.loads(result.content[0].text)
    return answer


def challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


async def test_ferrymcp_client_whole_flow_then_refresh_and_revoke(peer: Listening) -> None:
    storage, browser = Storage(), Browser(AuthorizationCodeResult)
    metadata = OAuthClientMetadata(client_name="ferrymcp", redirect_uris=[REDIRECT], scope="mcp")
    auth = OAuthClientProvider(
        server_url=peer.url,
        client_metadata=metadata,
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=auth) as http, Client(streamable_http_client(peer.url, http_client=http)) as c:
        assert (await c.call_tool("whoami", {})).content[0].text == "mcp"  # type: ignore[union-attr]
        before = await stats(c)
    # Discovered, registered, asked the user once with PKCE S256 and the resource.
    query = parse_qs(urlparse(browser.urls[0]).query)
    assert query["code_challenge_method"] == ["S256"] and query["resource"] == [peer.url]
    assert storage.client_info.client_id and storage.client_info.client_secret
    first = storage.tokens.access_token

    # The stored token says it has expired: the next connection refreshes it first.
    storage.tokens = OAuthToken(**{**storage.tokens.model_dump(), "expires_in": 0})
    async with httpx2.AsyncClient(auth=auth) as http, Client(streamable_http_client(peer.url, http_client=http)) as c:
        after = await stats(c)
    assert after["refreshes"] == before["refreshes"] + 1
    assert after["authorizations"] == before["authorizations"]
    assert storage.tokens.access_token != first

    # Revoking the access token (RFC 7009) makes the endpoint refuse it.
    token, info = storage.tokens.access_token, storage.client_info
    async with httpx2.AsyncClient() as http:
        form = {"token": token, "client_id": info.client_id, "client_secret": info.client_secret}
        revoked = await http.post(f"{peer.base}/revoke", data=form)
        assert revoked.status_code == 200 and revoked.content == b""
        assert revoked.headers["cache-control"] == "no-store"
        refused = await http.post(
            peer.url,
            headers={"authorization": f"Bearer {token}", "accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
    assert refused.status_code == 401
    assert refused.json()["error"] == "invalid_token"


async def test_the_official_client_whole_flow(peer: Listening) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.auth import OAuthClientProvider as OfficialProvider
    from mcp.client.streamable_http import streamable_http_client as official_http
    from mcp.shared.auth import AuthorizationCodeResult as OfficialResult
    from mcp.shared.auth import OAuthClientMetadata as OfficialMetadata

    storage, browser = Storage(), Browser(OfficialResult)
    auth = OfficialProvider(
        server_url=peer.url,
        client_metadata=OfficialMetadata(client_name="official", redirect_uris=[REDIRECT], scope="mcp"),
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=auth) as http, OfficialClient(official_http(peer.url, http_client=http)) as c:
        result = await c.call_tool("whoami", {})
        assert result.content[0].text == "mcp"  # type: ignore[union-attr]
    assert len(browser.urls) == 1
    assert storage.tokens.refresh_token and storage.client_info.client_id


async def register(http: Any, base: str, **metadata: Any) -> dict[str, Any]:
    answer = await http.post(f"{base}/register", json={"redirect_uris": [REDIRECT], **metadata})
    assert answer.status_code == 201, answer.text
    registered: dict[str, Any] = answer.json()
    return registered


async def code_for(http: Any, base: str, client: dict[str, Any], verifier: str, scope: str = "mcp") -> str:
    answer = await http.get(
        f"{base}/authorize",
        params={
            "response_type": "code",
            "client_id": client["client_id"],
            "redirect_uri": REDIRECT,
            "code_challenge": challenge(verifier),
            "code_challenge_method": "S256",
            "state": "s1",
            "scope": scope,
        },
    )
    assert answer.status_code == 302, answer.text
    location = urlparse(answer.headers["location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == REDIRECT
    query = parse_qs(location.query)
    assert query["state"] == ["s1"]
    return query["code"][0]


async def test_hostile_requests_get_the_official_errors(peer: Listening) -> None:
    async with httpx2.AsyncClient() as http:
        document = (await http.get(f"{peer.base}/.well-known/oauth-authorization-server")).json()
        assert document["token_endpoint"] == f"{peer.base}/token"
        assert document["code_challenge_methods_supported"] == ["S256"]
        assert document["revocation_endpoint"] == f"{peer.base}/revoke"
        client = await register(http, peer.base, scope="mcp forbidden", grant_types=["authorization_code"])
        verifier = secrets.token_urlsafe(48)
        code = await code_for(http, peer.base, client, verifier)
        token = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client["client_id"],
            "client_secret": client["client_secret"],
        }

        # A verifier that is not the challenge's: invalid_grant, and the code still stands.
        wrong = await http.post(f"{peer.base}/token", data={**token, "code_verifier": "x" * 43})
        assert (wrong.status_code, wrong.json()) == (
            400,
            {"error": "invalid_grant", "error_description": "incorrect code_verifier"},
        )
        assert wrong.headers["cache-control"] == "no-store" and wrong.headers["pragma"] == "no-cache"

        # An unknown client: 401 invalid_client.
        unknown = await http.post(
            f"{peer.base}/token", data={**token, "client_id": "nobody", "code_verifier": verifier}
        )
        assert unknown.status_code == 401 and unknown.json()["error"] == "invalid_client"
        # The right client with a wrong secret: 401 too.
        bad_secret = await http.post(
            f"{peer.base}/token", data={**token, "client_secret": "no", "code_verifier": verifier}
        )
        assert bad_secret.json() == {"error": "invalid_client", "error_description": "Invalid client_secret"}

        # A grant the client did not register for: unsupported_grant_type.
        refresh = {
            "grant_type": "refresh_token",
            "refresh_token": "r",
            **{k: token[k] for k in ("client_id", "client_secret")},
        }
        unsupported = await http.post(f"{peer.base}/token", data=refresh)
        assert unsupported.status_code == 400 and unsupported.json()["error"] == "unsupported_grant_type"

        # The right verifier: tokens, not to be cached.
        granted = await http.post(f"{peer.base}/token", data={**token, "code_verifier": verifier})
        assert granted.status_code == 200, granted.text
        assert granted.json()["token_type"] == "Bearer" and granted.headers["cache-control"] == "no-store"
        # A code is good once (the provider forgot it).
        again = await http.post(f"{peer.base}/token", data={**token, "code_verifier": verifier})
        assert again.json() == {"error": "invalid_grant", "error_description": "authorization code does not exist"}

        # The provider's own TokenError: its code and description.
        forbidden_verifier = secrets.token_urlsafe(48)
        forbidden = await code_for(http, peer.base, client, forbidden_verifier, scope="forbidden")
        refused = await http.post(
            f"{peer.base}/token", data={**token, "code": forbidden, "code_verifier": forbidden_verifier}
        )
        assert (refused.status_code, refused.json()) == (
            400,
            {"error": "invalid_scope", "error_description": "scope forbidden is never granted"},
        )

        # A redirect URI the client did not register: 400 to the user agent, never a redirect.
        authorize = {
            "response_type": "code",
            "client_id": client["client_id"],
            "redirect_uri": "http://evil.example/cb",
            "code_challenge": challenge(verifier),
            "state": "s2",
        }
        mismatch = await http.get(f"{peer.base}/authorize", params=authorize)
        assert mismatch.status_code == 400
        assert mismatch.json() == {
            "error": "invalid_request",
            "error_description": "Redirect URI 'http://evil.example/cb' not registered for client",
            "state": "s2",
        }
        # An unknown scope with a good redirect URI: redirected back with the error.
        scoped = await http.get(
            f"{peer.base}/authorize", params={**authorize, "redirect_uri": REDIRECT, "scope": "admin"}
        )
        assert scoped.status_code == 302
        assert parse_qs(urlparse(scoped.headers["location"]).query) == {
            "error": ["invalid_scope"],
            "error_description": ["Client was not registered with scope admin"],
            "state": ["s2"],
        }
        # No PKCE challenge: refused, back at the registered redirect URI.
        del authorize["code_challenge"]
        no_pkce = await http.get(f"{peer.base}/authorize", params={**authorize, "redirect_uri": REDIRECT})
        assert parse_qs(urlparse(no_pkce.headers["location"]).query)["error"] == ["invalid_request"]

        # A registration asking for a scope the server does not offer.
        bad = await http.post(f"{peer.base}/register", json={"redirect_uris": [REDIRECT], "scope": "root"})
        assert bad.status_code == 400 and bad.json()["error"] == "invalid_client_metadata"

        # CORS: a browser's preflight of the token endpoint is answered for every origin.
        preflight = await http.options(
            f"{peer.base}/token",
            headers={"origin": "https://app.example", "access-control-request-method": "POST"},
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == "*"
        assert "POST" in preflight.headers["access-control-allow-methods"]
