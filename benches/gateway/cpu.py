"""The gateway's own cost per call, which the machine's load changes far less than wall-clock
figures: the CPU time (utime+stime from /proc/PID/stat) of the `ferrymcp gateway` process
over a bench run, divided by the calls the run made (instruction counts would be better,
but the benchmark VM has no hardware counters). Same setup as run.py (ferrymcp's fixture upstream over Streamable HTTP,
an mcp.json naming it by URL, `ferrymcp bench` over one client connection), no FastMCP.

    python3 benches/gateway/cpu.py [--runs 3] [--concurrency 1 64] [--duration 5s]

Prints, per concurrency, the medians over the runs of calls/s, p50 and the gateway's CPU
µs/call, with the load average before and after the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, TOOL, Listening  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    parser.add_argument("--duration", default="5s")
    parser.add_argument("--ferrymcp", type=Path, default=ROOT / "target/release/ferrymcp")
    parser.add_argument("--fixture", type=Path, default=ROOT / "target/release/ferrymcp-everything")
    args = parser.parse_args()

    load = os.getloadavg()
    upstream = Listening([str(args.fixture), "--transport", "http", "--port", "0"])
    scratch = Path(tempfile.mkdtemp(prefix="ferrymcp-gateway-cpu-"))
    config = scratch / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fx": {"url": upstream.url}}}))
    gateway = Listening([str(args.ferrymcp), "gateway", str(config), "--port", "0"])
    pid = gateway.process.pid
    rows: dict[int, list[dict]] = {c: [] for c in args.concurrency}
    try:
        for _ in range(args.runs):
            for concurrency in args.concurrency:
                command = [str(args.ferrymcp), "bench", gateway.url, "--tool", f"fx__{TOOL}"]
                command += ["-c", str(concurrency), "-d", args.duration, "--warmup", "0s", "--json"]
                before = cpu_seconds(pid)
                result = subprocess.run(command, capture_output=True, text=True, check=True)
                used = cpu_seconds(pid) - before
                figures = json.loads(result.stdout)
                calls = figures["calls"]
                row = {
                    "rate": figures["callsPerSecond"],
                    "p50": figures["latencyMs"]["p50"],
                    "cpu_us": used / calls * 1e6,
                }
                rows[concurrency].append(row)
                print(f"c={concurrency}: {row}", file=sys.stderr)
    finally:
        gateway.close()
        upstream.close()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; after: {os.getloadavg()[0]:.2f}")
    print("| in flight | calls/s | p50 (ms) | gateway CPU (µs/call) |")
    print("|---|---|---|---|")
    for concurrency, runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"| {concurrency} | {med['rate']:,.0f} | {med['p50']:.3f} | {med['cpu_us']:.0f} |")


if __name__ == "__main__":
    main()
