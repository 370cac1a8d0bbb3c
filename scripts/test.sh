#!/usr/bin/env bash
# Builds and runs every test: unit and integration tests of every crate (over real child
# processes and pipes, against ferrymcp's fixtures and the official reference server),
# and each criterion benchmark once in test mode.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# Real peers for the interop tests, pinned in tests/interop/package.json.
command -v npm >/dev/null || fail "npm is required for the interop tests (Node.js 20+)."
npm install --prefix tests/interop --no-audit --no-fund --loglevel=error

cargo test --workspace --release --all-targets
