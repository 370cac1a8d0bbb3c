"""A server with MCP Apps and an extension serving a request method of its own, for
test_extensions_apps.py: imported there (in memory) and run as a stdio server process."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ferrymcp.server.apps import Apps, ResourceCsp, client_supports_apps
from ferrymcp.server.extension import Extension, MethodBinding
from ferrymcp.server.mcpserver import Context, MCPServer, require_client_extension
from ferrymcp.types import EmptyResult, RequestParams


class Search(Extension):
    """An extension serving a request method of its own, for clients that declared it."""

    identifier = "com.example/search"

    def settings(self) -> dict[str, Any]:
        return {"indexes": 2}

    def methods(self) -> Sequence[MethodBinding]:
        async def reindex(ctx: Any, params: Any) -> EmptyResult:
            require_client_extension(ctx, self.identifier)
            return EmptyResult()

        return [MethodBinding(method="com.example/reindex", params_type=RequestParams, handler=reindex)]


def clock() -> MCPServer[Any]:
    apps = Apps()

    @apps.tool(resource_uri="ui://clock/app.html", description="The time.")
    def get_time(ctx: Context) -> str:
        return "12:00" if client_supports_apps(ctx) else "It is noon."

    apps.add_html_resource("ui://clock/app.html", "<h1>clock</h1>", csp=ResourceCsp(connect_domains=["https://x.test"]))
    return MCPServer("clock", extensions=[apps, Search()])


if __name__ == "__main__":
    clock().run()
