"""A ferrymcp server on its own HTTPS: `python tls_server.py CERT KEY` (PEM files); prints
`listening on https://...` once it listens on a free port."""

import sys

from ferrymcp import MCPServer

mcp = MCPServer("tls-server")


@mcp.tool()
def echo(text: str) -> str:
    """Returns its argument."""
    return text


if __name__ == "__main__":
    mcp.run("streamable-http", host="127.0.0.1", port=0, ssl_certfile=sys.argv[1], ssl_keyfile=sys.argv[2])
