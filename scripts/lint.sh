#!/usr/bin/env bash
# The lint stage, run by scripts/test.sh before anything else so that CI fails in minutes,
# not after the tests: formatting, lints and types of all three languages, and the
# checked-in stub of the native Python module against the module itself.
#
# Each check is one command with its settings in one config file (rustfmt.toml at the
# root; [tool.ruff] and [tool.mypy] in bindings-python/pyproject.toml;
# bindings-node/eslint.config.mjs and tsconfig.json), so an editor runs the same check.
# The tools install by package name, pinned: ruff and mypy into the test venv `.venv`
# (scripts/lint-requirements.txt), eslint and typescript-eslint as devDependencies of
# bindings-node. Each step prints its time; the whole stage takes about a minute with a
# warm target directory (clippy and the wheel reuse earlier builds).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

started=$SECONDS
step() {
  local name="$1" begun=$SECONDS
  shift
  echo "lint: $name"
  "$@" || fail "lint: $name failed"
  echo "lint: $name ok ($((SECONDS - begun)) s)"
}

# Rust: one rustfmt.toml for the workspace; clippy over every target, warnings are errors.
step "cargo fmt" cargo fmt --all --check
# Clippy runs with the PyO3 settings maturin builds the wheel with (its config file, once a
# wheel was built), else the two reconfigure pyo3 for each other and the wheel below
# rebuilds pyo3 and the binding every time (two minutes instead of seconds).
clippy() {
  local config
  config="$(ls "$PWD"/target/maturin/pyo3-config-*.txt 2>/dev/null | head -n 1 || true)"
  if [ -n "$config" ]; then
    PYO3_CONFIG_FILE="$config" PYO3_BUILD_EXTENSION_MODULE=1 cargo clippy --release --workspace --all-targets --quiet -- -D warnings
  else
    cargo clippy --release --workspace --all-targets --quiet -- -D warnings
  fi
}
step "cargo clippy" clippy
# The shipped crates for macOS and Windows too (no linker needed; scripts/check-targets.sh).
step "cargo clippy (macOS, Windows)" bash scripts/check-targets.sh

# Python: ruff (lint and format) over the package, its tests, the Python under tests/ and
# the packaging smoke test.
[ -x .venv/bin/pip ] || python3 -m venv --clear .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r tests/interop/requirements.txt -r scripts/lint-requirements.txt
python_files=(bindings-python/python bindings-python/tests tests scripts examples cli/tests)
step "ruff check" .venv/bin/ruff check --config bindings-python/pyproject.toml "${python_files[@]}"
step "ruff format" .venv/bin/ruff format --config bindings-python/pyproject.toml --check "${python_files[@]}"
# mypy --strict over the package (the pure-Python layer against _native.pyi).
step "mypy" bash -c 'cd bindings-python && ../.venv/bin/mypy'

# TypeScript: the layer type-checked (no output) and linted; devDependencies pinned.
step "npm install (bindings-node)" npm install --prefix bindings-node --no-audit --no-fund --omit=optional --loglevel=error
step "tsc --noEmit" bash -c 'cd bindings-node && npx tsc -p tsconfig.json --noEmit'
step "eslint" bash -c 'cd bindings-node && npx eslint --max-warnings 0 .'
step "schemas.ts is generated from tests/mcp-schema" bash -c 'cd bindings-node && node scripts/gen-schemas.mjs --check'

# Last, being the slow one on a cold target directory: _native.pyi against the module it
# describes. The wheel is built (the very build scripts/test.sh installs next, so it costs
# nothing there) and stubtest compares every name, signature and kind with the stub.
build_wheel() {
  (cd bindings-python && ../.venv/bin/maturin build --release --quiet -o ../target/wheels --interpreter ../.venv/bin/python)
  .venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/ferrymcp-*.whl
}
step "wheel for stubtest" build_wheel
step "stubtest _native.pyi" bash -c 'cd bindings-python && ../.venv/bin/python -m mypy.stubtest ferrymcp._native --mypy-config-file pyproject.toml --allowlist stubtest-allowlist.txt'

echo "lint: all checks passed in $((SECONDS - started)) s"
