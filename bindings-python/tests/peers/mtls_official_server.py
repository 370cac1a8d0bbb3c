"""The official SDK's server (PyPI `mcp`) as an ASGI app, for uvicorn with TLS that
demands a client certificate (test_client_tls_options.py): `uvicorn --factory
mtls_official_server:app --ssl-cert-reqs 2 ...`."""

from mcp.server.mcpserver import MCPServer


def app() -> object:
    mcp = MCPServer("mtls-official", version="1.0.0")

    @mcp.tool()
    def echo(text: str) -> str:
        """Returns its argument."""
        return text

    return mcp.streamable_http_app()
