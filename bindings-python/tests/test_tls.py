"""https:// from Python: a ferrymcp server serving TLS itself (`run("streamable-http",
ssl_certfile=, ssl_keyfile=)`), reached by ferrymcp's client and by the official SDK's
client, both trusting the test's CA through `SSL_CERT_FILE` (the platform store's usual
override); without it the certificate is refused, with an error that says so."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import HERE, Served, make_certs

from ferrymcp import Client


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_certs(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def server(certs: dict[str, Path]) -> Iterator[Served]:
    command = [sys.executable, str(HERE / "peers" / "tls_server.py"), str(certs["cert"]), str(certs["key"])]
    served = Served(command, r"listening on (https://\S+)")
    yield served
    assert served.stop() == 0


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_ferrymcp_client_over_tls(server: Served, certs: dict[str, Path], monkeypatch, mode) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certs["ca"]))
    async with Client(server.url, mode=mode) as client:
        result = await client.call_tool("echo", {"text": "über TLS"})
        assert result.content[0].text == "über TLS"


@pytest.mark.asyncio
async def test_the_official_client_over_tls(server: Served, certs: dict[str, Path], monkeypatch) -> None:
    from mcp import Client as OfficialClient

    monkeypatch.setenv("SSL_CERT_FILE", str(certs["ca"]))
    async with OfficialClient(server.url, mode="legacy") as client:
        result = await client.call_tool("echo", {"text": "über TLS"})
        assert result.content[0].text == "über TLS"


@pytest.mark.asyncio
async def test_an_untrusted_certificate_is_refused_saying_why(server: Served, tmp_path: Path, monkeypatch) -> None:
    empty = tmp_path / "none.pem"
    empty.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(empty))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    with pytest.raises(Exception, match="certificate"):
        async with Client(server.url, mode="legacy") as client:
            await client.list_tools()


def test_certificate_and_key_go_together() -> None:
    from ferrymcp import MCPServer

    with pytest.raises(TypeError, match="ssl_certfile= and ssl_keyfile= go together"):
        MCPServer("s").run("streamable-http", ssl_certfile="cert.pem")
