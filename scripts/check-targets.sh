#!/usr/bin/env bash
# The crates that ship (ferrymcp-core and the two bindings) type-checked and linted for
# the platforms CI cannot run: macOS (x86_64-apple-darwin; aarch64 shares its cfg paths)
# and Windows (x86_64-pc-windows-msvc). `cargo clippy --target` needs no linker and no
# SDK, only the targets' standard libraries, added with rustup; it catches an OS-specific
# call without a path for each platform (libc's `pipe2` on macOS, `kill` on Windows).
# Measured on the shared 2-core machine: 2.5 minutes cold (after the targets' first
# download), 25 seconds when only ferrymcp's crates changed. What runs on those platforms
# is the release workflow's business (.github/workflows/release.yml builds there). TLS is
# left out (`--no-default-features`): its ring builds C and assembly for the target, which
# needs that platform's SDK; it has no OS-specific code of ours.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

targets=(x86_64-apple-darwin x86_64-pc-windows-msvc)
command -v rustup >/dev/null || fail "rustup is required to add the targets ${targets[*]}"
rustup target add "${targets[@]}" >/dev/null 2>&1 || fail "rustup could not add the targets ${targets[*]}"
for target in "${targets[@]}"; do
  cargo clippy --release --quiet --target "$target" -p ferrymcp-core -p ferrymcp-cli -p ferrymcp-python -p ferrymcp-node --no-default-features -- -D warnings
done
