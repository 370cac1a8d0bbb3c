#!/usr/bin/env bash
# The cost of scaling out: calls/s and p50 through haproxy in front of three replicas,
# with in-memory sessions pinned to the replica that opened them (`pinned`) against
# sessions in Redis spread over every replica by plain round robin (`redis`). One legacy
# session, `echo` calls one at a time and 64 in flight (`ferrymcp bench --driver raw`,
# the SDK benchmark's driver). Prints the medians of ROUNDS runs per mode (default 3) as a Markdown table.
#   bash benches/scaleout/run.sh [ROUNDS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3} seconds=${2:-3}
cargo build --release --quiet -p ferrymcp-benches --bin ferrymcp-echo
cargo build --release --quiet -p ferrymcp-cli --bin ferrymcp
out="$(mktemp)"
for round in $(seq "$rounds"); do
  for mode in pinned redis; do
    printf '%s ' "$mode" >> "$out"
    target/release/ferrymcp bench --driver raw --mode legacy --duration "$seconds" --window 64 \
      -- benches/scaleout/cluster.sh '{port}' "$mode" >> "$out"
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    mode, run = line.split(" ", 1)
    runs.setdefault(mode, []).append(json.loads(run))
med = lambda xs: statistics.median(xs)
print("| sessions | sequential calls/s | sequential p50 (µs) | 64 in flight calls/s | 64 in flight p50 (µs) |")
print("|---|---:|---:|---:|---:|")
for mode, label in (("pinned", "in memory, pinned to one replica"), ("redis", "Redis, round robin over 3")):
    rs = runs[mode]
    s = [r["sequential"] for r in rs]; f = [r["in_flight"] for r in rs]
    print(f"| {label} | {med([p['calls_per_s'] for p in s]):,.0f} | {med([p['p50_us'] for p in s]):,.0f} "
          f"| {med([p['calls_per_s'] for p in f]):,.0f} | {med([p['p50_us'] for p in f]):,.0f} |")
print(f"\nMedians of {len(runs['redis'])} rounds (`bash benches/scaleout/run.sh`).")
PY
