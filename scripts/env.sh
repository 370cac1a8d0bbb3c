# Sourced by the other scripts: checks the toolchain every build needs.
# Later steps (Python, Node) add what they need here, installed by package name.

fail() { echo "error: $*" >&2; exit 1; }

command -v cargo >/dev/null || fail "cargo is required (Rust 1.85 or newer, from rustup)."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# One profile for everything: tests, benches, the demo and the packages reuse one build.
export CARGO_PROFILE=release
