"""FastMCP's proxy (PyPI `fastmcp`) in front of one Streamable HTTP server, served over
Streamable HTTP: `python fastmcp_proxy.py UPSTREAM_URL PORT`. Run by benches/gateway/run.py
in benches/.deps/fastmcp (scripts/bench.sh installs it). FastMCP 4 replaced
`FastMCP.as_proxy(...)` with `fastmcp.server.create_proxy(...)` ("the recommended way to
create a proxy server"); the older name is used where only it exists."""

import sys

from fastmcp import FastMCP

if __name__ == "__main__":
    upstream, port = sys.argv[1], int(sys.argv[2])
    try:
        from fastmcp.server import create_proxy

        proxy = create_proxy(upstream, name="fastmcp-proxy")
    except ImportError:
        proxy = FastMCP.as_proxy(upstream, name="fastmcp-proxy")
    print(f"listening on http://127.0.0.1:{port}/mcp", flush=True)
    proxy.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
