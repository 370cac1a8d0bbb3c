"""What every Python echo server of the benchmark shares: the filler tools and the choice
of transport, so the three servers differ only in the SDK they import.

`python echo_X.py` serves stdio; `python echo_X.py http PORT` serves Streamable HTTP on
127.0.0.1:PORT at /mcp. `MCP_BENCH_TOOLS=N` registers N filler tools beside `echo`.
"""

from __future__ import annotations

import os
import sys


def filler(text: str) -> str:
    """A filler tool: echoes like `echo`."""
    return text


def register_fillers(server) -> None:
    for i in range(int(os.environ.get("MCP_BENCH_TOOLS", "0"))):
        server.tool(name=f"tool_{i:04}", description=f"Benchmark filler tool number {i}.")(filler)


def run(server, http_kwargs=None) -> None:
    register_fillers(server)
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]), **(http_kwargs or {}))
    else:
        server.run()
