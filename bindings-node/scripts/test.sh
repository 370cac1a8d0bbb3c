#!/usr/bin/env bash
# Builds the ferrymcp npm package from a fresh checkout and tests it the way a user gets
# it: devDependencies installed by name (pinned in package.json), the addon built with
# `napi build --release`, the TypeScript layer compiled (ESM and CommonJS), the package
# and its linux-x64-gnu binary package (npm/linux-x64-gnu, one of the per-platform
# packages in its optionalDependencies) packed with `npm pack`, both tarballs installed
# into a temporary project next to the official SDKs the tests run against (the main
# package ships no binary: every test loads it from the platform package, as a user's
# install does), and node:test run there, then the cross-process
# protocol suite (tests/protocol) against the Node fixture; then, from that project,
# the official conformance suite: server side against the Node fixture
# (tests/fixtures/node/everything.mjs) served over HTTP, and its client scenarios against
# the Node conformance client (tests/fixtures/node/conformance_client.mjs); both import the
# installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(cd .. && pwd)"
package="$(pwd)"

command -v node >/dev/null || { echo "bindings-node: Node.js 20+ is required" >&2; exit 1; }
npm install --no-audit --no-fund --omit=optional --loglevel=error

# The addon, and its generated loader and .d.cts, which are committed: a build that
# changes them means the committed ones are stale.
# No `--strip`: it adds `-C link-arg=-s` to RUSTFLAGS, which rebuilds every dependency instead
# of reusing the workspace's release build; the addon is stripped afterwards instead.
npx napi build --platform --release --output-dir native --js index.cjs --dts index.d.cts
strip --strip-unneeded native/*.node
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && git -C "$root" ls-files --error-unmatch bindings-node/native/index.d.cts >/dev/null 2>&1; then
  git -C "$root" diff --exit-code -- bindings-node/native/index.d.cts bindings-node/native/index.cjs \
    || { echo "bindings-node: native/index.d.cts or index.cjs is stale; commit the regenerated files" >&2; exit 1; }
fi

rm -rf esm cjs
npx tsc -p tsconfig.json
npx tsc -p tsconfig.cjs.json
node scripts/mark-cjs.mjs

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --pack-destination "$work" --loglevel=error >/dev/null
# The Rust fixture the HTTP client tests also run against, and the `ferrymcp` executable
# (both built already by scripts/test.sh's `cargo test --workspace --release --all-targets`:
# this is a no-op there, and the same build when this script runs alone).
(cd "$root" && cargo test --release --quiet --workspace --all-targets --no-run)
# The binary goes into its platform package (napi-rs's layout, npm/<platform>), packed too,
# and so does the `ferrymcp` command's executable (cli/), which the main package's `bin`
# launcher (bin/ferrymcp.cjs) runs: the same binary as `cargo install` and the wheel give.
cp native/ferrymcp.linux-x64-gnu.node npm/linux-x64-gnu/
strip --strip-unneeded -o npm/linux-x64-gnu/ferrymcp "$root/target/release/ferrymcp"
npm pack ./npm/linux-x64-gnu --pack-destination "$work" --loglevel=error >/dev/null
cp test/package.json "$work/package.json"
mkdir -p "$work/test"
cp test/*.mjs "$work/test/"
cp -r test/fixtures "$work/test/fixtures"
cp "$root/tests/fixtures/node/everything.mjs" "$work/test/fixtures/everything.mjs"
cp "$root/tests/fixtures/node/conformance_client.mjs" "$work/conformance_client.mjs"
export FERRYMCP_EVERYTHING="$root/target/release/ferrymcp-everything"
# The repository, for the parity test that runs a Python twin on its venv (input-rounds.test.mjs).
export FERRYMCP_ROOT="$root"
(
  cd "$work"
  # Both tarballs, as npm would fetch them for `npm install ferrymcp` on linux-x64-gnu.
  # `--omit=optional` everywhere here: the platform packages are not published yet, and an
  # install must never fetch a package of that name from the registry (whoever registered it).
  started=$SECONDS
  npm install --no-audit --no-fund --omit=optional --loglevel=error ./ferrymcp-0*.tgz ./ferrymcp-linux-x64-gnu-*.tgz
  echo "bindings-node: packed tarballs installed in $((SECONDS - started)) s"
  ! ls node_modules/ferrymcp/native/*.node >/dev/null 2>&1 \
    || { echo "bindings-node: the main package must not ship a binary" >&2; exit 1; }
  [ -f node_modules/ferrymcp-linux-x64-gnu/ferrymcp.linux-x64-gnu.node ] \
    || { echo "bindings-node: ferrymcp-linux-x64-gnu was not installed with its binary" >&2; exit 1; }
  [ -x node_modules/ferrymcp-linux-x64-gnu/ferrymcp ] && [ -x node_modules/.bin/ferrymcp ] \
    || { echo "bindings-node: the ferrymcp command (bin launcher, platform executable) was not installed" >&2; exit 1; }
  node --test --test-concurrency=2 test/*.test.mjs
  # The protocol suite (its test binary built already by scripts/test.sh) against the Node
  # fixture importing the package installed here: every message schema-checked, the
  # scripted session's transcript equal to the Rust fixture's.
  (cd "$root" && FERRYMCP_FIXTURE="node $work/test/fixtures/everything.mjs" FERRYMCP_FIXTURE_DIALECT=typescript \
    cargo test --release --workspace --test protocol)
  # The official conformance suite (server side, both requirement sets) against the Node
  # fixture over Streamable HTTP, importing the package installed here: every scored check
  # must pass, as for the Rust and Python fixtures.
  "$root/tests/conformance/run-server.sh" node test/fixtures/everything.mjs
  "$root/tests/conformance/run-client.sh" --without-auth node "$work/conformance_client.mjs"
  if [ "${BENCH:-}" = 1 ]; then
    mkdir -p bench && cp "$package/bench/"*.mjs bench/ && node bench/echo.mjs
  fi
)
