#!/usr/bin/env bash
# Builds and runs every test: unit and integration tests of every crate (over real child
# processes and pipes, against ferrymcp's fixtures and the official SDKs), and each
# criterion benchmark once in test mode.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

# Formatting, lints, types and stubs first (scripts/lint.sh): a failure there ends the run
# in minutes.
bash scripts/lint.sh

# Real peers for the interop tests, pinned in tests/interop/.
command -v npm >/dev/null || fail "npm is required for the interop tests (Node.js 20+)."
npm install --prefix tests/interop --no-audit --no-fund --loglevel=error
[ -x .venv/bin/pip ] || python3 -m venv --clear .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r tests/interop/requirements.txt

# Real servers for the scale-out tests (tests/scaleout): Redis and haproxy, from Debian's
# packages; the tests start them on random ports and stop them.
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

cargo test --workspace --release --all-targets

# The official conformance suite (server side, 2025-11-25 and 2026-07-28) against the Rust
# fixture built above, over Streamable HTTP: every scored check must pass.
tests/conformance/run-server.sh target/release/ferrymcp-everything
# Its client scenarios (both requirement sets, auth/* aside) against the Rust conformance
# client built above: every one must pass.
tests/conformance/run-client.sh target/release/conformance-client

# The Python package: a wheel built by maturin (same release profile) and installed into
# the test venv the way a user installs it; then its tests (over HTTP too: the ASGI app
# under uvicorn, the client against the official server and the Rust fixture built
# above), and the official Python SDK's client against the Rust fixture.
# The wheel carries the `ferrymcp` command: the executable cargo built above (cli/),
# stripped, as a script of the wheel (maturin's data directory ferrymcp._native.data/scripts/,
# which pip installs into the environment's bin/), the same binary npm's package runs.
mkdir -p bindings-python/ferrymcp._native.data/scripts
strip --strip-unneeded -o bindings-python/ferrymcp._native.data/scripts/ferrymcp target/release/ferrymcp
(cd bindings-python && ../.venv/bin/maturin build --release --quiet -o ../target/wheels --interpreter ../.venv/bin/python)
.venv/bin/pip install --quiet --force-reinstall --no-deps target/wheels/ferrymcp-*.whl
# The package as it ships: that wheel's manylinux tag checked by auditwheel, and the sdist
# built and installed in a fresh virtualenv, then called over stdio (the one extra compile).
bash scripts/packaging/python.sh
# The protocol suite again (the test binary built above), against the Python fixture on the
# installed wheel: every message schema-checked, the scripted session's transcript equal to
# the Rust fixture's. FERRYMCP_FIXTURE is split on whitespace; paths are absolute. The
# Python binding follows the official Python SDK where the official SDKs differ and core
# offers both (its HTTP refusals, an unknown tool as a result): FERRYMCP_FIXTURE_DIALECT.
FERRYMCP_FIXTURE="$PWD/.venv/bin/python $PWD/tests/fixtures/python/everything.py" FERRYMCP_FIXTURE_DIALECT=python \
  cargo test --release --workspace --test protocol
# The conformance suite again, against the Python fixture on the installed wheel, and its
# client scenarios against the Python conformance client (every one must pass).
tests/conformance/run-server.sh .venv/bin/python tests/fixtures/python/everything.py
tests/conformance/run-client.sh --without-auth .venv/bin/python tests/fixtures/python/conformance_client.py
.venv/bin/python -m pytest -q bindings-python/tests
.venv/bin/python -m pytest -q tests/interop/python

# The npm package, packed and installed the way a user gets it, its tests, and the
# conformance suite on the installed package: server side against the Node fixture, client
# scenarios against the Node conformance client (both run by bindings-node/scripts/test.sh,
# where the package is installed).
bash bindings-node/scripts/test.sh
