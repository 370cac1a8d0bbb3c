"""Extensions on both sides, through the engine: a server extension's tools, resources and
request methods (`MCPServer(extensions=[...])`), MCP Apps (`ferrymcp.server.apps`), and what a
client declares with `Client(extensions=[advertise(...)])`, which the server's handlers read
(`client_supports_apps`, `require_client_extension`). Both eras, over the in-memory
transport and over stdio to a server process.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import apps_peer  # noqa: E402

from ferrymcp import Client  # noqa: E402
from ferrymcp.client import ClientExtension, advertise  # noqa: E402
from ferrymcp.exceptions import McpError  # noqa: E402
from ferrymcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps  # noqa: E402
from ferrymcp.server.mcpserver import MCPServer  # noqa: E402
from ferrymcp.types import MISSING_REQUIRED_CLIENT_CAPABILITY, EmptyResult  # noqa: E402

ERAS = ["legacy", "2026-07-28"]
APPS_CLIENT = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})


class _Reindex:
    method = "com.example/reindex"
    params = None

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return {"method": self.method}


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("where", ["memory", "stdio"])
async def test_apps_and_a_server_extension(mode: str, where: str) -> None:
    target = apps_peer.clock() if where == "memory" else [sys.executable, apps_peer.__file__]
    async with Client(target, mode=mode, extensions=[APPS_CLIENT]) as client:
        assert (client.session.initialize_result is None) == (mode != "legacy"), "no handshake in 2026-07-28"
        assert client.server_capabilities.extensions == {EXTENSION_ID: {}, "com.example/search": {"indexes": 2}}
        (tool,) = (await client.list_tools()).tools
        assert tool.meta == {"ui": {"resourceUri": "ui://clock/app.html"}}
        (listed,) = (await client.list_resources()).resources
        ui = {"ui": {"csp": {"connectDomains": ["https://x.test"]}}}
        assert (listed.mime_type, listed.meta) == (APP_MIME_TYPE, ui)
        (contents,) = (await client.read_resource("ui://clock/app.html")).contents
        assert (contents.mime_type, contents.meta, contents.text) == (APP_MIME_TYPE, ui, "<h1>clock</h1>")
        assert (await client.call_tool("get_time", {})).content[0].text == "12:00"
        with pytest.raises(McpError) as refused:
            await client.session.send_request(_Reindex(), EmptyResult)
        assert refused.value.code == MISSING_REQUIRED_CLIENT_CAPABILITY
        assert refused.value.data == {"requiredCapabilities": {"extensions": {"com.example/search": {}}}}
    async with Client(target, mode=mode, extensions=[APPS_CLIENT, advertise("com.example/search")]) as client:
        # Declared now: answered (an empty result; 2026-07-28 marks it `resultType: complete`).
        assert isinstance(await client.session.send_request(_Reindex(), EmptyResult), EmptyResult)
    async with Client(target, mode=mode) as plain:
        assert (await plain.call_tool("get_time", {})).content[0].text == "It is noon."


def test_what_is_misdeclared_is_refused() -> None:
    apps = Apps()

    @apps.tool(resource_uri="ui://missing.html")
    def orphan() -> str:
        return ""

    with pytest.raises(ValueError, match="no such resource is registered"):
        MCPServer("x", extensions=[apps])
    with pytest.raises(ValueError, match="ui:// scheme"):
        Apps().add_html_resource("https://x.test/app.html", "")

    class Claims(ClientExtension):
        identifier = "com.example/claims"

        def claims(self) -> Sequence[Any]:
            return [object()]

    with pytest.raises(TypeError, match=r"claims\(\) returns ResultClaim instances"):
        Client("x", extensions=[Claims()])
    with pytest.raises(TypeError, match="sequence of ClientExtension"):
        Client("x", extensions={"com.example/x": {}})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="vendor-prefix/name"):
        advertise("no-slash")
