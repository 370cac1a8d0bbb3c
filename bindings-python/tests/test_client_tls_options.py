"""ferrymcp's explicit TLS options for the Python HTTP clients: `ca_file` (a PEM bundle
trusted instead of the platform's store) and `client_cert` (a certificate chain and key
for mutual TLS), on `Client` and on the official transport functions
(`streamablehttp_client`, `streamable_http_client`, `sse_client`).

Real servers: ferrymcp's own HTTPS server (peers/tls_server.py), reached with `ca_file`
and refused without it (the platform store emptied), and the official SDK's server under
uvicorn demanding a client certificate signed by the test's CA (mutual TLS), refused
without one. The CA and certificates are made by openssl here."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import HERE, Served, make_certs

from ferrymcp import Client
from ferrymcp.client.session import ClientSession
from ferrymcp.client.sse import sse_client
from ferrymcp.client.streamable_http import streamable_http_client, streamablehttp_client


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_certs(tmp_path_factory.mktemp("tls-options"))


@pytest.fixture
def no_platform_trust(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The platform's store emptied, so only `ca_file` can make a certificate trusted."""
    empty = tmp_path / "none.pem"
    empty.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(empty))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))


@pytest.fixture(scope="module")
def ferrymcp_tls(certs: dict[str, Path]) -> Iterator[Served]:
    command = [sys.executable, str(HERE / "peers" / "tls_server.py"), str(certs["cert"]), str(certs["key"])]
    served = Served(command, r"listening on (https://\S+)")
    yield served
    assert served.stop() == 0


@pytest.fixture(scope="module")
def official_mtls(certs: dict[str, Path]) -> Iterator[Served]:
    command = [sys.executable, "-m", "uvicorn", "--factory", "mtls_official_server:app", "--port", "0"]
    command += ["--app-dir", str(HERE / "peers"), "--ssl-certfile", str(certs["cert"])]
    command += ["--ssl-keyfile", str(certs["key"]), "--ssl-ca-certs", str(certs["ca"]), "--ssl-cert-reqs", "2"]
    served = Served(command, r"Uvicorn running on (https://\S+)")
    served.url = served.url.rstrip("/") + "/mcp"
    yield served
    served.stop()


@pytest.mark.asyncio
@pytest.mark.usefixtures("no_platform_trust")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_ca_option_makes_a_server_trusted(ferrymcp_tls: Served, certs: dict[str, Path], mode: str) -> None:
    async with Client(ferrymcp_tls.url, mode=mode, ca_file=certs["ca"]) as client:
        assert (await client.call_tool("echo", {"text": "ca"})).content[0].text == "ca"
    with pytest.raises(Exception, match="certificate"):
        async with Client(ferrymcp_tls.url, mode=mode) as client:
            await client.list_tools()


@pytest.mark.asyncio
@pytest.mark.usefixtures("no_platform_trust")
async def test_the_official_transport_functions_take_the_options(ferrymcp_tls: Served, certs: dict[str, Path]) -> None:
    async with streamablehttp_client(ferrymcp_tls.url, ca_file=certs["ca"]) as (read, write, _):
        async with ClientSession(read, write) as session:
            assert (await session.call_tool("echo", {"text": "1.x"})).content[0].text == "1.x"
    async with streamable_http_client(ferrymcp_tls.url, ca_file=str(certs["ca"])) as (read, write, _):
        async with ClientSession(read, write) as session:
            assert (await session.call_tool("echo", {"text": "2.x"})).content[0].text == "2.x"
    async with sse_client(ferrymcp_tls.url, ca_file=certs["ca"]) as (read, write):
        async with ClientSession(read, write) as session:
            assert (await session.call_tool("echo", {"text": "sse"})).content[0].text == "sse"
    with pytest.raises(TypeError, match="client_cert= must be"):
        async with streamablehttp_client(ferrymcp_tls.url, client_cert="one.pem"):  # type: ignore[arg-type]
            pass


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_mutual_tls_with_a_client_certificate(official_mtls: Served, certs: dict[str, Path], mode: str) -> None:
    pair = (certs["client_cert"], certs["client_key"])
    async with Client(official_mtls.url, mode=mode, ca_file=certs["ca"], client_cert=pair) as client:
        assert (await client.call_tool("echo", {"text": "mutual"})).content[0].text == "mutual"
    with pytest.raises(Exception):  # noqa: B017 - the server ends the handshake; the wording is the TLS stack's
        async with Client(official_mtls.url, mode=mode, ca_file=certs["ca"]) as client:
            await client.list_tools()


@pytest.mark.asyncio
async def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="nowhere.pem"):
        async with Client("https://127.0.0.1:9/mcp", mode="legacy", ca_file=tmp_path / "nowhere.pem"):
            pass
