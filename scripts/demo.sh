#!/usr/bin/env bash
# Builds the examples and runs the demo: a client that starts a ferrymcp server as a child
# process and talks to it over stdio.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo build --release -p ferrymcp-examples
exec ./target/release/demo
