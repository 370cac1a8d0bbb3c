"""The gateway's instructions per forwarded call, counted by valgrind (callgrind): the one
figure of the gateway's cost that the machine's load does not change at all.

    python3 benches/gateway/instructions.py [--calls 2000] [--concurrency 1 64]

The setup is run.py's (ferrymcp's fixture upstream over Streamable HTTP, an mcp.json
naming it by URL), with `ferrymcp gateway` under `valgrind --tool=callgrind
--instr-atstart=no`. After a warm-up of 200 calls, instrumentation is switched on
(`callgrind_control -i on`) for `ferrymcp bench GATEWAY --tool fx__test_simple_text
--calls N -c C`, then off; the instructions counted (callgrind's `totals`, every thread of
the gateway) divided by N is the figure. Needs valgrind and a release build.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import ROOT, TOOL, Listening  # noqa: E402


def bench(ferrymcp: Path, url: str, calls: int, concurrency: int) -> None:
    command = [str(ferrymcp), "bench", url, "--tool", f"fx__{TOOL}", "--calls", str(calls)]
    command += ["-c", str(concurrency), "--warmup", "0s", "--timeout", "120s", "--json"]
    figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    if figures["ok"] != calls:
        raise SystemExit(f"{calls} calls asked, {figures['ok']} answered: {figures}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    parser.add_argument("--ferrymcp", type=Path, default=ROOT / "target/release/ferrymcp")
    parser.add_argument("--fixture", type=Path, default=ROOT / "target/release/ferrymcp-everything")
    args = parser.parse_args()

    upstream = Listening([str(args.fixture), "--transport", "http", "--port", "0"])
    scratch = Path(tempfile.mkdtemp(prefix="ferrymcp-gateway-instructions-"))
    config = scratch / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fx": {"url": upstream.url}}}))
    try:
        print("| in flight | instructions per call (gateway) |")
        print("|---|---|")
        for concurrency in args.concurrency:
            out = scratch / f"callgrind.{concurrency}.out"
            valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
            gateway = Listening([*valgrind, str(args.ferrymcp), "gateway", str(config), "--port", "0"])
            try:
                bench(args.ferrymcp, gateway.url, 200, concurrency)
                pid = str(gateway.process.pid)
                subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
                bench(args.ferrymcp, gateway.url, args.calls, concurrency)
                subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
            finally:
                gateway.close()
            totals = [line for line in out.read_text(errors="replace").splitlines() if line.startswith("totals:")]
            instructions = int(totals[-1].split()[1])
            print(f"| {concurrency} | {instructions / args.calls:,.0f} |", flush=True)
    finally:
        upstream.close()


if __name__ == "__main__":
    main()
