#!/usr/bin/env bash
# The end-to-end benchmark against the official SDKs (issue 7; benches/README.md explains
# it). Installs every peer by package name into benches/.deps/ (ignored by git), builds
# ferrymcp's Rust, Python and Node servers, runs the matrix with benches/e2e/run.py and the
# client side with benches/e2e/clients.py, and
# writes benches/results/latest.md and latest.png with benches/e2e/report.py; then the
# gateway comparison (benches/gateway/run.py) into benches/results/gateway-latest.md.
#   scripts/bench.sh [--rounds 5] [--seconds 2] [--only KEY,KEY]   (arguments go to run.py;
#   clients.py takes the same --rounds and --seconds)
# BENCH_NOTE="..." adds a note to latest.md. Not part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
deps=benches/.deps
mkdir -p "$deps"
command -v node >/dev/null || fail "Node.js 20+ is required."
command -v cc >/dev/null || fail "a C compiler (cc) is required for the stdio ceiling."

# The driver (`ferrymcp bench --driver raw`, the shipped command), ferrymcp's Rust echo
# server and the HTTP ceiling; the C stdio ceiling.
cargo build --release -p ferrymcp-cli --bin ferrymcp
cargo build --release -p ferrymcp-benches --bins
cc -O2 -D_GNU_SOURCE -o "$deps/stdio-ceiling" benches/peers/ceiling/stdio_ceiling.c

# Python: the official SDK (and the bench tools), FastMCP, and ferrymcp's wheel, each in its venv.
for venv in official fastmcp ferrymcp; do
  [ -x "$deps/$venv/bin/pip" ] || python3 -m venv --clear "$deps/$venv"
done
"$deps/official/bin/pip" install --quiet --disable-pip-version-check -r benches/peers/python/requirements-official.txt
"$deps/fastmcp/bin/pip" install --quiet --disable-pip-version-check -r benches/peers/python/requirements-fastmcp.txt
(cd bindings-python && "../$deps/official/bin/maturin" build --release --quiet -o ../target/wheels --interpreter "../$deps/ferrymcp/bin/python")
"$deps/ferrymcp/bin/pip" install --quiet --disable-pip-version-check --force-reinstall target/wheels/ferrymcp-*.whl
"$deps/ferrymcp/bin/pip" install --quiet --disable-pip-version-check -r benches/peers/python/requirements-ferrymcp.txt

# Node: the official TypeScript SDK, and ferrymcp's npm package (with its linux-x64-gnu
# binary package) packed the way a user gets it.
mkdir -p "$deps/node"
cp benches/peers/node/package.json benches/peers/node/*.mjs "$deps/node/"
(
  cd bindings-node
  npm install --no-audit --no-fund --loglevel=error
  npx napi build --platform --release --output-dir native --js index.cjs --dts index.d.cts
  strip --strip-unneeded native/*.node
  rm -rf esm cjs
  npx tsc -p tsconfig.json
  npx tsc -p tsconfig.cjs.json
  node scripts/mark-cjs.mjs
  rm -f ../$deps/node/ferrymcp-*.tgz
  npm pack --pack-destination "../$deps/node" --loglevel=error >/dev/null
  # The binary ships in its per-platform package (an optional dependency), packed too.
  cp native/ferrymcp.linux-x64-gnu.node npm/linux-x64-gnu/
  npm pack ./npm/linux-x64-gnu --pack-destination "../$deps/node" --loglevel=error >/dev/null
)
(cd "$deps/node" && npm install --no-audit --no-fund --loglevel=error && npm install --no-audit --no-fund --no-save --loglevel=error ./ferrymcp-*.tgz)

# Rust: the official SDK's echo server, a standalone project outside the workspace.
CARGO_TARGET_DIR="$deps/rmcp-target" cargo build --release --manifest-path benches/peers/rmcp-echo/Cargo.toml
# and its client, for the client side (benches/e2e/clients.py).
CARGO_TARGET_DIR="$deps/rmcp-target" cargo build --release --manifest-path benches/peers/rmcp-client/Cargo.toml

# Every implementation answers the realistic `report` tool alike before anything is timed.
(cd benches/e2e && "../../$deps/official/bin/python" check_tools.py)
runs="$(cd benches/e2e && "../../$deps/official/bin/python" run.py "$@")"
# The client side (issue 17): each SDK's client against the same server (ferrymcp-echo), into
# clients.jsonl beside runs.jsonl, where report.py finds it; same --rounds and --seconds.
(cd benches/e2e && "../../$deps/official/bin/python" clients.py --out-dir "$(dirname "$runs")" "$@" >/dev/null)
(cd benches/e2e && "../../$deps/official/bin/python" report.py "$runs" --note "${BENCH_NOTE:-}")

# What a gateway adds per call: `ferrymcp gateway` against FastMCP's proxy (installed above),
# in front of the same upstream, measured with `ferrymcp bench` (benches/gateway/run.py).
cargo build --release -p ferrymcp-cli -p ferrymcp-tests --bin ferrymcp --bin ferrymcp-everything
python3 benches/gateway/run.py --json benches/results/gateway-latest.json > benches/results/gateway-latest.md
