"""The OAuth client of the official Python SDK's API (`ferrymcp.client.auth`), driven by the
engine, against authorization servers this project did not write.

The official SDK (PyPI `mcp`) is the peer: `tests/http_client/official_python_oauth.py` is
its MCP server acting as its own authorization server (its routes for metadata, dynamic
registration, authorize and token, an in-memory provider that approves at once, so the
authorization URL answers with the redirect), and `peers/oauth_client_credentials.py` is
its resource server beside a client-credentials token endpoint. The `callback_handler`
completes the redirect as a browser would: it fetches the authorization URL with httpx2
and reads the code, state and issuer from the redirect. Each connection goes through the
1.x path (`streamablehttp_client(url, auth=...)`, `sse_client`), or 2.x's
(`streamable_http_client(url, http_client=httpx2.AsyncClient(auth=...))`).

Needs the native module, `mcp`, httpx2 and uvicorn.
"""

from __future__ import annotations

import json
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
from ferrymcp.client.auth import (
    AuthorizationCodeResult,
    OAuthClientProvider,
    OAuthFlowError,
    OAuthRegistrationError,
    OAuthTokenError,
)
from ferrymcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
)
from ferrymcp.client.session import ClientSession
from ferrymcp.client.sse import sse_client
from ferrymcp.client.streamable_http import streamable_http_client, streamablehttp_client
from ferrymcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

HERE = Path(__file__).resolve().parent
OFFICIAL_AS = HERE.parents[1] / "tests" / "http_client" / "official_python_oauth.py"
CLIENT_CREDENTIALS = HERE / "peers" / "oauth_client_credentials.py"


@pytest.fixture
def official() -> Iterator[Listening]:
    server = Listening(OFFICIAL_AS)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def machine() -> Iterator[Listening]:
    server = Listening(CLIENT_CREDENTIALS)
    yield server
    server.stop()


class Storage:
    """The official docs' in-memory `TokenStorage`."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Browser:
    """`redirect_handler` and `callback_handler`: the user's browser, approving at once."""

    def __init__(self, *, state: str | None = None, code: str | None = None, v1: bool = False) -> None:
        self.urls: list[str] = []
        self.state, self.code, self.v1 = state, code, v1

    async def redirect(self, url: str) -> None:
        self.urls.append(url)

    async def callback(self) -> Any:
        async with httpx2.AsyncClient() as http:
            answer = await http.get(self.urls[-1])
        assert answer.status_code in (302, 303, 307), answer.text
        query = parse_qs(urlparse(answer.headers["location"]).query)
        code = self.code or query["code"][0]
        state = self.state or query["state"][0]
        if self.v1:
            return code, state
        return AuthorizationCodeResult(code=code, state=state, iss=query.get("iss", [None])[0])


def metadata(scope: str = "mcp notes:write") -> OAuthClientMetadata:
    return OAuthClientMetadata(
        client_name="ferrymcp-test",
        redirect_uris=["http://127.0.0.1:1/callback"],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        scope=scope,
    )


def provider(server: Listening, storage: Storage, browser: Browser, scope: str = "mcp notes:write") -> Any:
    return OAuthClientProvider(
        server_url=server.url,
        client_metadata=metadata(scope),
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )


async def text(session: Client, tool: str) -> str:
    result = await session.call_tool(tool, {})
    return str(result.content[0].text)


async def stats(session: Client) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(await text(session, "stats"))
    return answer


async def test_v1_authorization_code_flow_then_storage_reuse(official: Listening) -> None:
    storage, browser = Storage(), Browser(v1=True)
    async with (
        streamablehttp_client(official.url, auth=provider(official, storage, browser)) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        assert "mcp" in (await text(session, "whoami")).split()
        first = await stats(session)
    assert len(browser.urls) == 1
    query = parse_qs(urlparse(browser.urls[0]).query)
    assert query["code_challenge_method"] == ["S256"]
    assert query["resource"] == [official.url]
    assert (first["registrations"], first["authorizations"], first["code_exchanges"]) == (1, 1, 1)
    assert storage.tokens is not None and storage.tokens.refresh_token
    assert storage.client_info is not None and storage.client_info.client_id

    # A second connection with the stored registration and tokens: no user, no registration.
    again = Browser()
    async with (
        streamablehttp_client(official.url, auth=provider(official, storage, again)) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        second = await stats(session)
    assert again.urls == []
    assert (second["registrations"], second["authorizations"], second["code_exchanges"]) == (1, 1, 1)


async def test_v2_http_client_with_auth_and_headers(official: Listening) -> None:
    storage, browser = Storage(), Browser()
    async with httpx2.AsyncClient(auth=provider(official, storage, browser), headers={"X-Probe": "1"}) as http:
        async with Client(streamable_http_client(official.url, http_client=http)) as client:
            assert "mcp" in (await text(client, "whoami")).split()
    assert len(browser.urls) == 1
    assert storage.tokens is not None


async def test_sse_client_takes_auth(official: Listening) -> None:
    storage, browser = Storage(), Browser()
    async with (
        sse_client(official.url, auth=provider(official, storage, browser)) as (read, write),
        ClientSession(read, write) as session,
    ):
        assert "mcp" in (await text(session, "whoami")).split()


async def test_an_expired_stored_token_is_refreshed(official: Listening) -> None:
    storage, browser = Storage(), Browser()
    async with (
        streamablehttp_client(official.url, auth=provider(official, storage, browser)) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
    assert storage.tokens is not None
    old = storage.tokens.access_token
    # The stored token says it has expired: the next connection refreshes before it sends.
    storage.tokens = OAuthToken(**{**storage.tokens.model_dump(), "expires_in": 0})
    async with (
        streamablehttp_client(official.url, auth=provider(official, storage, Browser())) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        counted = await stats(session)
    assert counted["refreshes"] == 1
    assert (counted["authorizations"], counted["code_exchanges"]) == (1, 1)
    assert storage.tokens.access_token != old


async def test_a_403_insufficient_scope_steps_up_and_the_call_goes_through(official: Listening) -> None:
    storage, browser = Storage(), Browser()
    async with (
        streamablehttp_client(official.url, auth=provider(official, storage, browser)) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        assert len(browser.urls) == 1
        # write_note needs notes:write, which the first token lacks: the server answers 403
        # insufficient_scope, the user is asked again for both scopes, the call is resent.
        result = await session.call_tool("write_note", {"text": "hi"})
        assert result.content[0].text == "noted: hi"  # type: ignore[union-attr]
        counted = await stats(session)
    assert len(browser.urls) == 2
    asked = [parse_qs(urlparse(url).query)["scope"][0].split() for url in browser.urls]
    assert asked[0] == ["mcp"] and set(asked[1]) == {"mcp", "notes:write"}, asked
    assert counted["authorizations"] == 2


async def connect(url: str, auth: Any) -> None:
    async with (
        streamablehttp_client(url, auth=auth) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()


async def test_a_refused_registration_is_an_oauth_registration_error(official: Listening) -> None:
    auth = provider(official, Storage(), Browser(), scope="mcp not-a-scope")
    with pytest.raises(OAuthRegistrationError, match="invalid_client_metadata"):
        await connect(official.url, auth)


async def test_a_refused_code_is_an_oauth_token_error(official: Listening) -> None:
    auth = provider(official, Storage(), Browser(code="not-the-code"))
    with pytest.raises(OAuthTokenError, match="invalid_grant"):
        await connect(official.url, auth)


async def test_a_forged_state_or_missing_callback_is_an_oauth_flow_error(official: Listening) -> None:
    with pytest.raises(OAuthFlowError, match="state") as raised:
        await connect(official.url, provider(official, Storage(), Browser(state="forged")))
    assert not isinstance(raised.value, (OAuthTokenError, OAuthRegistrationError))
    # The 2.x Client probes the era first: the failed authorization ends the connection
    # there, the user is not sent to the authorization server a second time.
    forged = Browser(state="forged")
    async with httpx2.AsyncClient(auth=provider(official, Storage(), forged)) as http:
        with pytest.raises(OAuthFlowError, match="state"):
            async with Client(streamable_http_client(official.url, http_client=http)):
                pass
    assert len(forged.urls) == 1
    no_callback = OAuthClientProvider(official.url, metadata(), Storage(), redirect_handler=Browser().redirect)
    with pytest.raises(OAuthFlowError, match="No callback handler"):
        await connect(official.url, no_callback)


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
async def test_client_credentials(machine: Listening, method: str) -> None:
    storage = Storage()
    auth = ClientCredentialsOAuthProvider(
        machine.url, storage, "machine", "s3cret:with/odd chars", token_endpoint_auth_method=method, scope="mcp"
    )
    async with (
        streamablehttp_client(machine.url, auth=auth) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        assert await text(session, "whoami") == "machine mcp"
        last = (await stats(session))["token_requests"][-1]
    assert last["method"] == method
    assert (last["grant_type"], last["scope"], last["resource"]) == ("client_credentials", "mcp", machine.url)
    assert storage.tokens is not None


async def test_client_credentials_with_a_wrong_secret_is_an_oauth_token_error(machine: Listening) -> None:
    auth = ClientCredentialsOAuthProvider(machine.url, Storage(), "machine", "wrong", scope="mcp")
    with pytest.raises(OAuthTokenError, match="invalid_client"):
        await connect(machine.url, auth)


async def test_what_the_engine_cannot_drive_is_refused_by_name() -> None:
    url = "http://127.0.0.1:1/mcp"
    with pytest.raises(TypeError, match="auth=BasicAuth"):
        async with streamablehttp_client(url, auth=httpx2.BasicAuth("a", "b")):
            pass
    # 2.x's `http_client=` carries the requests itself, so its own auth flows (one that
    # answers a challenge included) and cookies are its own to run, as with the official client.
    with pytest.raises(NotImplementedError, match="private_key_jwt"):
        PrivateKeyJWTOAuthProvider(url, Storage(), "id", assertion_provider=lambda audience: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(NotImplementedError, match="validate_resource_url"):
        OAuthClientProvider(url, metadata(), Storage(), validate_resource_url=lambda *a: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="client_metadata_url must be a valid HTTPS URL"):
        OAuthClientProvider(url, metadata(), Storage(), client_metadata_url="http://x.example/c.json")
    provider = OAuthClientProvider(url, metadata(), Storage())
    assert isinstance(provider, httpx2.Auth)
    with pytest.raises(TypeError, match="driven by ferrymcp's engine"):
        async with httpx2.AsyncClient(auth=provider) as http:
            await http.get(url)


def test_v1_positional_timeout() -> None:
    provider = OAuthClientProvider("http://127.0.0.1:1/mcp", metadata(), Storage(), None, None, 12.0)
    assert provider.context.timeout == 12.0
    assert provider.context.client_metadata_url is None


def test_the_signature_is_the_official_one_and_1x_timeout_still_works() -> None:
    """Introspection shows 2.x's parameters, in its order (code and documentation read
    them); 1.x's `timeout=` is still taken by keyword."""
    import inspect

    from mcp.client.auth import OAuthClientProvider as Official

    ours = inspect.signature(OAuthClientProvider.__init__).parameters
    assert list(ours) == list(inspect.signature(Official.__init__).parameters)
    assert ours["validate_resource_url"].default is None and ours["client_metadata_url"].default is None
    provider = OAuthClientProvider("http://127.0.0.1:1/mcp", metadata(), Storage(), timeout=7.0)
    assert provider.context.timeout == 7.0
