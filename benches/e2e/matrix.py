"""The benchmark matrix: every implementation, how to start it, and which peer its ratios
are taken against.

Commands are relative to the repository root and use what scripts/bench.sh installed into
benches/.deps/. An `http` command holds `{port}`, which `ferrymcp bench --driver raw` replaces with a free port.
ferrymcp's Rust, Python and Node rows serve Streamable HTTP (`ferrymcp-echo http {port}`,
Python `mcp.run("streamable-http", host=, port=)`, Node `server.listen({port})`).
"""

from __future__ import annotations

from dataclasses import dataclass

DEPS = "benches/.deps"
BIN = "target/release"
PY = "benches/peers/python"


@dataclass(frozen=True)
class Impl:
    key: str
    label: str
    language: str  # python | node | rust | ceiling
    ours: bool
    stdio: list[str]
    http: list[str] | None = None
    peer: str | None = None  # the key ratios are taken against (ours only)
    also: tuple[str, ...] = ()  # further peers of the same language with a ratio row (ours only)
    http_modes: tuple[str, ...] = ("legacy", "modern")  # the HTTP scenarios it serves
    report: bool = True  # serves the `report` tool (the `report` scenario)


IMPLS = [
    Impl(
        "mcp-python",
        "official Python SDK (mcp)",
        "python",
        False,
        [f"{DEPS}/official/bin/python", f"{PY}/echo_official.py"],
        http=[f"{DEPS}/official/bin/python", f"{PY}/echo_official.py", "http", "{port}"],
    ),
    # FastMCP serves the echo only: it is a second Python peer, not one the issue names.
    Impl("fastmcp", "FastMCP", "python", False, [f"{DEPS}/fastmcp/bin/python", f"{PY}/echo_fastmcp.py"], report=False),
    Impl(
        "ferrymcp-python",
        "ferrymcp (Python)",
        "python",
        True,
        [f"{DEPS}/ferrymcp/bin/python", f"{PY}/echo_ferrymcp.py"],
        http=[f"{DEPS}/ferrymcp/bin/python", f"{PY}/echo_ferrymcp.py", "http", "{port}"],
        peer="mcp-python",
        also=("fastmcp",),
    ),
    Impl(
        "ts-sdk",
        "official TypeScript SDK v2",
        "node",
        False,
        ["node", f"{DEPS}/node/echo-official.mjs"],
        http=["node", f"{DEPS}/node/echo-official.mjs", "http", "{port}"],
    ),
    Impl(
        "ts-sdk-v1",
        "official TypeScript SDK v1",
        "node",
        False,
        ["node", f"{DEPS}/node/echo-official-v1.mjs"],
        http=["node", f"{DEPS}/node/echo-official-v1.mjs", "http", "{port}"],
        # The v1 line has no 2026-07-28 stateless handler: legacy sessions only.
        http_modes=("legacy",),
    ),
    Impl(
        "ferrymcp-node",
        "ferrymcp (Node)",
        "node",
        True,
        ["node", f"{DEPS}/node/echo-ferrymcp.mjs"],
        http=["node", f"{DEPS}/node/echo-ferrymcp.mjs", "http", "{port}"],
        peer="ts-sdk",
        also=("ts-sdk-v1",),
    ),
    Impl(
        "rmcp",
        "official Rust SDK (rmcp)",
        "rust",
        False,
        [f"{DEPS}/rmcp-target/release/rmcp-echo"],
        http=[f"{DEPS}/rmcp-target/release/rmcp-echo", "http", "{port}"],
    ),
    Impl(
        "ferrymcp-rust",
        "ferrymcp (Rust)",
        "rust",
        True,
        [f"{BIN}/ferrymcp-echo"],
        http=[f"{BIN}/ferrymcp-echo", "http", "{port}"],
        peer="rmcp",
    ),
    Impl(
        "ceiling",
        "ceiling (C stdio, hyper HTTP)",
        "ceiling",
        False,
        [f"{DEPS}/stdio-ceiling"],
        http=[f"{BIN}/http-ceiling", "{port}"],
        report=False,
    ),
]

# The scenarios of one round, each run for every implementation that has it.
SCENARIOS = ["stdio", "tools-list", "http-legacy", "http-modern", "paced", "report", "burst"]

# The `paced` scenario (issue 17): echo calls offered at these fixed rates (calls/s) over
# stdio, below saturation, for the implementations of these languages; it reports the
# server's CPU per call when it mostly waits.
PACED_RATES = [1000, 25000]
PACED_LANGUAGES = {"node"}

TOOLS = 1000

# The `report` scenario (issue 17): sequential and 64 in flight over stdio, calling the
# `report` tool (ten validated arguments, a structured result with an outputSchema, 64 KiB of
# text; benches/README.md, "The realistic tool") with these arguments.
REPORT_ARGS = "benches/peers/report-args.json"

# The `burst` scenario (issue 17): this many echo calls written at once over stdio, then
# every answer awaited (`ferrymcp bench --driver raw --burst`): time, errors, peak RSS.
BURST = 10000


# The client side (issue 17; benches/README.md, "Issue 17: the client side"): each client
# program calls the same fixed server, ferrymcp's Rust `ferrymcp-echo`, over stdio and over
# Streamable HTTP (`e2e/clients.py`). A program is its SDK's high-level `Client` and prints
# one JSON line (`peers/python/clientbench.py`, `peers/node/clientbench.mjs`).
@dataclass(frozen=True)
class ClientImpl:
    key: str
    label: str
    language: str  # python | node | rust
    ours: bool
    argv: list[str]
    peer: str | None = None  # the official client of the same language (ours only)
    also: tuple[str, ...] = ()
    transports: tuple[str, ...] = ("stdio", "http")  # the transports it is run on


CLIENTS = [
    ClientImpl(
        "mcp-python-client",
        "official Python SDK (mcp) Client",
        "python",
        False,
        [f"{DEPS}/official/bin/python", f"{PY}/client_official.py"],
    ),
    ClientImpl(
        "ferrymcp-python-client",
        "ferrymcp (Python) Client",
        "python",
        True,
        [f"{DEPS}/ferrymcp/bin/python", f"{PY}/client_ferrymcp.py"],
        peer="mcp-python-client",
    ),
    ClientImpl(
        "ts-client", "official TypeScript SDK v2 Client", "node", False, ["node", f"{DEPS}/node/client-official.mjs"]
    ),
    ClientImpl(
        "ts-client-v1",
        "official TypeScript SDK v1 Client",
        "node",
        False,
        ["node", f"{DEPS}/node/client-official-v1.mjs"],
    ),
    ClientImpl(
        "ferrymcp-node-client",
        "ferrymcp (Node) Client",
        "node",
        True,
        ["node", f"{DEPS}/node/client-ferrymcp.mjs"],
        peer="ts-client",
        also=("ts-client-v1",),
    ),
]
# rmcp's client is a reference row (ferrymcp has no Rust client program here); stdio only.
CLIENTS.append(
    ClientImpl(
        "rmcp-client",
        "official Rust SDK (rmcp) client",
        "rust",
        False,
        [f"{DEPS}/rmcp-target/release/rmcp-client"],
        transports=("stdio",),
    )
)
# The fixed server of the client side: stdio command, and HTTP command served at /mcp.
CLIENT_SERVER_STDIO = [f"{BIN}/ferrymcp-echo"]
CLIENT_SERVER_HTTP = [f"{BIN}/ferrymcp-echo", "http", "{port}"]
CLIENT_TRANSPORTS = ["stdio", "http"]
