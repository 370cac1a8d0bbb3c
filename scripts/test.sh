#!/usr/bin/env bash
# Builds and runs every test: unit and integration tests of every crate (over real child
# processes and pipes), and each criterion benchmark once in test mode.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
cargo test --workspace --release --all-targets
