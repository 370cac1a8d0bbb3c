"""Runs the benchmark matrix (matrix.py) with `ferrymcp bench --driver raw`: several rounds, and in each round
every scenario for every implementation, one after the other (A B A B ...), the order
reversed every other round so slow drifts of a shared machine fall on both sides. Each
run's JSON goes to benches/results/raw/<stamp>/, one line per run, for report.py.

    python benches/e2e/run.py [--rounds 5] [--seconds 2] [--only KEY,KEY] [--scenarios NAME,NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from matrix import BIN, BURST, IMPLS, PACED_LANGUAGES, PACED_RATES, REPORT_ARGS, SCENARIOS, TOOLS

ROOT = Path(__file__).resolve().parents[2]


def command(impl, scenario: str, seconds: float) -> tuple[list[str], dict] | None:
    load = [f"{BIN}/ferrymcp", "bench", "--driver", "raw", "--duration", f"{seconds}s"]
    env = dict(os.environ)
    if scenario == "stdio":
        return load + ["--large-echo", "--"] + impl.stdio, env
    if scenario == "paced":
        if impl.language not in PACED_LANGUAGES:
            return None
        return load + ["--rate", ",".join(map(str, PACED_RATES)), "--"] + impl.stdio, env
    if scenario == "report":
        if not impl.report:
            return None
        args = json.dumps(json.loads((ROOT / REPORT_ARGS).read_text()))
        return load + ["--tool", "report", "--args", args, "--"] + impl.stdio, env
    if scenario == "burst":
        return [f"{BIN}/ferrymcp", "bench", "--driver", "raw", "--burst", str(BURST), "--"] + impl.stdio, env
    if scenario == "tools-list":
        if impl.language == "ceiling":
            return None
        env["MCP_BENCH_TOOLS"] = str(TOOLS)
        return load + ["--tools-list", str(TOOLS), "--"] + impl.stdio, env
    mode = scenario.removeprefix("http-")
    if impl.http is None or mode not in impl.http_modes:
        return None
    return load + ["--mode", mode, "--"] + impl.http, env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--scenarios", default="", help="run only these scenarios (comma-separated)")
    args = parser.parse_args()
    scenarios = [s for s in SCENARIOS if not args.scenarios or s in args.scenarios.split(",")]
    unknown = set(filter(None, args.scenarios.split(","))) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios {sorted(unknown)}; known: {SCENARIOS}")
    impls = [i for i in IMPLS if not args.only or i.key in args.only.split(",")]
    out_dir = ROOT / "benches/results/raw" / time.strftime("%Y%m%d-%H%M%S")
    out_dir.mkdir(parents=True)
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    (out_dir / "meta.json").write_text(json.dumps({"rounds": args.rounds, "seconds": args.seconds, "commit": commit}))
    out = open(out_dir / "runs.jsonl", "w")
    for round_ in range(args.rounds):
        order = impls if round_ % 2 == 0 else impls[::-1]
        for scenario in scenarios:
            for impl in order:
                spec = command(impl, scenario, args.seconds)
                if spec is None:
                    continue
                argv, env = spec
                started = time.time()
                done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
                record = {"round": round_, "impl": impl.key, "scenario": scenario}
                if done.returncode == 0:
                    record["run"] = json.loads(done.stdout)
                else:
                    record["error"] = done.stderr.strip()[-500:]
                out.write(json.dumps(record) + "\n")
                out.flush()
                status = "ok" if "run" in record else "FAILED: " + record["error"][-200:]
                took = time.time() - started
                print(
                    f"round {round_ + 1}/{args.rounds} {scenario:12} {impl.key:16} {took:5.1f} s {status}",
                    file=sys.stderr,
                )
    out.close()
    print(out_dir / "runs.jsonl")


if __name__ == "__main__":
    main()
