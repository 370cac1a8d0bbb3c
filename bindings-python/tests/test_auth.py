"""Bearer auth as the official SDK's `token_verifier=` + `auth=AuthSettings(...)`, enforced by
ferrymcp's engine over real HTTP: `streamable_http_app()` under uvicorn (standalone and
mounted with the session-manager pattern) and the built-in `run("streamable-http")`, each
in a child process (peers/auth_server.py).

The official SDK (PyPI `mcp` 2.3.0) is the judge twice: its own `streamable_http_app()`
with the same settings and tokens, served in process through httpx2's ASGI transport,
gives the answers ferrymcp's must equal (status, JSON body, `WWW-Authenticate`; ferrymcp
adds the `scope` attribute the MCP specification asks for on 403), and the same protected
resource metadata document; and its client, with a token, calls the tools, which see the
token through `get_access_token()`. The constructor checks (the official errors, every
unsupported keyword refused by name) need no server.

Needs the native module, `mcp`, httpx2, uvicorn and Starlette.
"""

import inspect
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from mcp.client.streamable_http import streamable_http_client
from serving import HERE, Served, uvicorn

sys.path.insert(0, str(HERE / "peers"))
import auth_server

ERAS = ["legacy", "2026-07-28"]
MODERN = "2026-07-28"
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}}
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": "tools/call",
    "mcp-name": "whoami",
}
CALL_MODERN = {
    **CALL,
    "params": {
        **CALL["params"],
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}},
    },
}


@pytest.fixture(scope="module", params=["standalone", "mounted", "run"])
def served(request: pytest.FixtureRequest) -> Iterator[str]:
    """The MCP endpoint's URL, served one of three ways in a child process."""
    if request.param == "run":
        server = Served([sys.executable, str(HERE / "peers" / "auth_server.py"), "http"], r"listening on (\S+)")
        url = server.url
    else:
        server = uvicorn(request.param, "auth_server")
        url = server.url + ("/api/mcp" if request.param == "mounted" else "/mcp")
    yield url
    assert server.stop() == 0, "".join(server.lines)
    assert "Traceback" not in "".join(server.lines)


@pytest.fixture(scope="module")
def official() -> Any:
    """The official SDK's app for the same settings and tokens (in process, never run:
    its auth middleware and metadata route answer before any session is needed)."""
    from mcp.server.auth.provider import AccessToken
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.mcpserver import MCPServer

    class Verifier:
        async def verify_token(self, token: str) -> AccessToken | None:
            known = auth_server.TOKENS.get(token)
            if known is None:
                return None
            client_id, scopes, expires_at, _, _ = known
            return AccessToken(token=token, client_id=client_id, scopes=scopes, expires_at=expires_at)

    settings = AuthSettings(
        issuer_url=auth_server.ISSUER,
        resource_server_url=auth_server.RESOURCE,
        required_scopes=auth_server.REQUIRED,
        validate_token_resource=False,
    )
    return MCPServer("official", token_verifier=Verifier(), auth=settings).streamable_http_app()


async def answer(client: Any, url: str, token: str | None, modern: bool) -> tuple[int, Any, str | None]:
    headers = dict(HEADERS) if modern else {k: v for k, v in HEADERS.items() if not k.startswith("mcp-")}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    response = await client.post(url, headers=headers, content=json.dumps(CALL_MODERN if modern else CALL))
    return response.status_code, response.json(), response.headers.get("www-authenticate")


@pytest.mark.parametrize("modern", [False, True], ids=["legacy", "modern"])
async def test_refusals_are_the_official_sdks_answers(served: str, official: Any, modern: bool) -> None:
    transport = httpx2.ASGITransport(app=official)
    async with httpx2.AsyncClient() as ours, httpx2.AsyncClient(transport=transport) as theirs:
        for token in [None, "nope", "stale", "narrow"]:
            status, body, challenge = await answer(ours, served, token, modern)
            expected = await answer(theirs, "http://127.0.0.1:8000/mcp", token, modern)
            assert expected[0] in (401, 403), expected
            if token == "narrow":
                # The MCP specification's scope challenge adds `scope` (the official SDK omits it).
                assert challenge is not None and ', scope="mcp"' in challenge
                challenge = challenge.replace(', scope="mcp"', "")
            assert (status, body, challenge) == expected, token
    assert expected == (  # the last, a missing scope, spelled out
        403,
        {"error": "insufficient_scope", "error_description": "Required scope: mcp"},
        (
            'Bearer error="insufficient_scope", error_description="Required scope: mcp", resource_metadata='
            '"http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp"'
        ),
    )


async def test_a_verifier_that_raises_is_a_server_error_without_its_reason(served: str) -> None:
    async with httpx2.AsyncClient() as client:
        status, body, challenge = await answer(client, served, "boom", modern=True)
    assert (status, body, challenge) == (
        500,
        {"error": "server_error", "error_description": "Internal Server Error"},
        None,
    )


async def test_each_request_of_a_session_carries_its_own_token(served: str) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    plain = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient() as client:
        opened = await client.post(served, headers={**plain, "authorization": "Bearer good"}, json=initialize)
        assert opened.status_code == 200, opened.text
        session = {**plain, "mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await client.post(served, headers={**session, "authorization": "Bearer good"}, json=initialized)
        seen = []
        for token in ["other", "good", "other"]:
            reply = await client.post(served, headers={**session, "authorization": f"Bearer {token}"}, json=CALL)
            assert reply.status_code == 200, reply.text
            seen.append(json.loads(reply.json()["result"]["content"][0]["text"])["client_id"])
        refused = await client.post(served, headers={**session, "authorization": "Bearer narrow"}, json=CALL)
    assert seen == ["bob", "alice", "bob"]
    assert refused.status_code == 403


async def test_validate_token_resource_accepts_only_tokens_for_this_server() -> None:
    server = uvicorn("audience_checked", "auth_server")
    try:
        url = server.url + "/mcp"
        async with httpx2.AsyncClient() as client:
            statuses = {token: (await answer(client, url, token, modern=True))[0] for token in ["aimed", "good"]}
        assert statuses == {"aimed": 200, "good": 401}, "a token for no resource is not for this one"
    finally:
        assert server.stop() == 0, "".join(server.lines)


async def test_the_metadata_document_is_the_official_one(served: str, official: Any) -> None:
    path = "/.well-known/oauth-protected-resource/mcp"
    transport = httpx2.ASGITransport(app=official)
    async with httpx2.AsyncClient() as ours, httpx2.AsyncClient(transport=transport) as theirs:
        mine = await ours.get(served.removesuffix("/mcp") + path)
        expected = await theirs.get("http://127.0.0.1:8000" + path)
    assert expected.status_code == mine.status_code == 200
    assert (
        mine.json()
        == expected.json()
        == {
            "resource": auth_server.RESOURCE,
            "authorization_servers": [auth_server.ISSUER],
            "scopes_supported": ["mcp"],
            "bearer_methods_supported": ["header"],
        }
    )
    assert mine.headers["cache-control"] == expected.headers["cache-control"]


async def test_before_the_session_manager_runs_only_the_token_check_and_metadata_answer(official: Any) -> None:
    """As the official app, whose auth middleware and metadata route stand in front of the
    session manager: served without its lifespan (`--lifespan off`, so nothing enters
    `session_manager.run()`), the app still refuses a missing or bad token and serves the
    metadata document as the official one does; a request the token check lets through is
    the official `RuntimeError` (uvicorn's 500), and no tool runs."""
    server = uvicorn("standalone", "auth_server", "--lifespan", "off")
    try:
        url = server.url + "/mcp"
        path = "/.well-known/oauth-protected-resource/mcp"
        transport = httpx2.ASGITransport(app=official)
        async with httpx2.AsyncClient() as ours, httpx2.AsyncClient(transport=transport) as theirs:
            for token in [None, "nope", "narrow"]:
                for modern in (False, True):
                    status, body, challenge = await answer(ours, url, token, modern)
                    expected = await answer(theirs, "http://127.0.0.1:8000/mcp", token, modern)
                    assert expected[0] in (401, 403), expected
                    challenge = (challenge or "").replace(', scope="mcp"', "")
                    assert (status, body, challenge) == expected, (token, modern)
            mine, theirs_document = await ours.get(server.url + path), await theirs.get("http://127.0.0.1:8000" + path)
            assert (mine.status_code, mine.json()) == (theirs_document.status_code, theirs_document.json())
            assert mine.status_code == 200
            allowed = await ours.post(url, headers={**HEADERS, "authorization": "Bearer good"}, json=CALL_MODERN)
        assert allowed.status_code == 500
    finally:
        assert server.stop() == 0, "".join(server.lines)
    logged = "".join(server.lines)
    assert "RuntimeError: Task group is not initialized. Make sure to use run()." in logged


@pytest.mark.parametrize("mode", ERAS)
async def test_with_a_token_the_tools_see_it_through_get_access_token(served: str, mode: str) -> None:
    for token in ["good", "other"]:
        client_id, scopes, expires_at, subject, claims = auth_server.TOKENS[token]
        http = httpx2.AsyncClient(headers={"authorization": f"Bearer {token}"})
        async with http, mcp.Client(streamable_http_client(served, http_client=http), mode=mode) as client:
            for tool in ["whoami", "whoami_async"]:
                result = await client.call_tool(tool, {})
                assert result.is_error is not True, result
                seen = json.loads(result.content[0].text)
                assert seen == {
                    "token": token,
                    "client_id": client_id,
                    "scopes": scopes,
                    "expires_at": expires_at,
                    "subject": subject,
                    "claims": claims,
                }, (tool, mode)


class HeaderAuth(httpx2.Auth):
    """An `httpx.Auth` whose flow only sets a header, as the official examples write one."""

    def __init__(self, token: str) -> None:
        self.token = token

    def auth_flow(self, request: Any) -> Any:
        request.headers["Authorization"] = f"Bearer {self.token}"
        yield request


@pytest.mark.parametrize("mode", ERAS)
async def test_ferrymcps_client_takes_an_httpx_client_with_base_url_and_a_header_auth(served: str, mode: str) -> None:
    from ferrymcp.client import Client
    from ferrymcp.client.streamable_http import streamable_http_client as ferrymcp_streamable_http_client

    scheme, _, host, path = served.split("/", 3)
    for sdk_client, sdk_transport in [(Client, ferrymcp_streamable_http_client), (mcp.Client, streamable_http_client)]:
        http = httpx2.AsyncClient(base_url=f"{scheme}//{host}", auth=HeaderAuth("good"))
        async with http, sdk_client(sdk_transport(f"/{path}", http_client=http), mode=mode) as client:
            result = await client.call_tool("whoami", {})
            assert result.is_error is not True, (sdk_client, result)
            assert json.loads(result.content[0].text)["token"] == "good"


async def test_over_stdio_there_is_no_token() -> None:
    params = mcp.StdioServerParameters(command=sys.executable, args=[str(HERE / "peers" / "auth_server.py"), "stdio"])
    async with mcp.Client(params, mode="legacy") as client:
        assert (await client.call_tool("whoami", {})).content[0].text == "null"
    # In process, outside any request, likewise.
    assert (await auth_server.build().call_tool("whoami_async", {})).content[0].text == "null"


def test_auth_arguments_are_checked_as_the_official_sdk_checks_them() -> None:
    from ferrymcp.server import MCPServer
    from ferrymcp.server.auth.settings import AuthSettings

    settings = AuthSettings(issuer_url="https://auth.example.com", resource_server_url=None)
    with pytest.raises(ValueError, match="Must specify either auth_server_provider or token_verifier"):
        MCPServer("s", auth=settings)
    with pytest.raises(ValueError, match="without auth settings"):
        MCPServer("s", token_verifier=auth_server.Verifier())
    with pytest.raises(ValueError, match="Cannot specify both"):
        MCPServer("s", auth=settings, token_verifier=auth_server.Verifier(), auth_server_provider=object())
    with pytest.raises(TypeError, match="auth_server_provider lacks"):
        MCPServer("s", auth=settings, auth_server_provider=object())
    from ferrymcp.server.auth.provider import (
        AccessToken,
        AuthorizationCode,
        OAuthAuthorizationServerProvider,
        ProviderTokenVerifier,
        RefreshToken,
    )

    class Provider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
        """Generic over the application's token classes, as the official provider is."""

    # Served (test_auth_server.py drives it), its own tokens accepted on the endpoint.
    served = MCPServer("s", auth=settings, auth_server_provider=Provider())
    assert isinstance(served._token_verifier, ProviderTokenVerifier)
    with pytest.raises(TypeError, match="verify_token"):
        MCPServer("s", auth=settings, token_verifier=object())
    with pytest.raises(ValueError, match="issuer_url"):
        AuthSettings(issuer_url="auth.example.com", resource_server_url=None)
    with pytest.raises(TypeError):
        AuthSettings(issuer_url="https://auth.example.com")  # type: ignore[call-arg]  # resource_server_url is required


# The 1.x `FastMCP` constructor's keywords beyond 2.x's (its settings).
V1_KEYWORDS = {
    "host": "0.0.0.0",
    "port": 1,
    "mount_path": "/x",
    "sse_path": "/events",
    "message_path": "/m/",
    "streamable_http_path": "/api",
    "json_response": True,
    "stateless_http": True,
    "max_request_body_size": 1024,
    "transport_security": None,
    "event_store": object(),
    "retry_interval": 1000,
}
# Keywords that work: given a value, the server is built (behaviour is tested elsewhere).
WORKING = {
    "name", "title", "description", "instructions", "website_url", "icons", "version", "token_verifier",
    "debug", "log_level", "warn_on_duplicate_resources", "warn_on_duplicate_tools", "warn_on_duplicate_prompts",
    "dependencies", "lifespan", "auth", "resource_security", "cache_hints", "extensions",
    "host", "port", "streamable_http_path", "max_request_body_size", "transport_security", "retry_interval",
    "json_response", "stateless_http", "middleware", "subscriptions", "auth_server_provider", "event_store",
}  # fmt: skip


def test_every_official_keyword_works_or_raises_naming_itself() -> None:
    from mcp.server.mcpserver import MCPServer as Official

    from ferrymcp.server import MCPServer
    from ferrymcp.server.fastmcp import FastMCP

    official = [name for name in inspect.signature(Official.__init__).parameters if name != "self"]
    ours = inspect.signature(MCPServer.__init__).parameters
    v1 = inspect.signature(FastMCP.__init__).parameters
    assert not [name for name in official if name not in ours], "official keywords missing"
    assert not [name for name in V1_KEYWORDS if name not in v1], "1.x keywords missing"
    refused = [name for name in official if name not in WORKING]
    assert sorted(refused) == ["request_state_security", "resources", "tools"]
    for name in refused:
        value = [object()] if name in ("tools", "resources") else object()
        with pytest.raises((TypeError, NotImplementedError, ValueError), match=name):
            MCPServer("s", **{name: value})
    # 2.x's constructor takes none of 1.x's transport settings (as there: they go to run()).
    for name in [name for name in V1_KEYWORDS if name not in official]:
        with pytest.raises(TypeError, match=f"unexpected keyword argument '{name}'"):
            MCPServer("s", **{name: V1_KEYWORDS[name]})
    v1_refused = [name for name in V1_KEYWORDS if name not in WORKING]
    assert sorted(v1_refused) == ["message_path", "mount_path", "sse_path"]
    for name in v1_refused:
        with pytest.raises(TypeError, match=name):
            FastMCP("s", **{name: V1_KEYWORDS[name]})
    with pytest.raises(TypeError, match="no_such_keyword"):
        MCPServer("s", no_such_keyword=1)  # type: ignore[call-arg]
    for name in ["tools", "resources", "extensions", "middleware"]:
        MCPServer("s", **{name: ours[name].default})  # their defaults are accepted
    for name in ["json_response", "mount_path", "event_store"]:
        FastMCP("s", **{name: v1[name].default})
    server = FastMCP("s", port=1, host="0.0.0.0", streamable_http_path="/api", retry_interval=1000, debug=True)
    assert (server.settings.port, server.settings.host, server.settings.streamable_http_path) == (1, "0.0.0.0", "/api")
