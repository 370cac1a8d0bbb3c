"""What a gateway adds to each call: `ferrymcp gateway` against FastMCP's proxy
(`fastmcp.server.create_proxy`, formerly `FastMCP.as_proxy`), both in front of the same
upstream, measured with `ferrymcp bench`.

    python3 benches/gateway/run.py [--runs 3] [--concurrency 1 64] [--json FILE]

The upstream is ferrymcp's fixture server over Streamable HTTP (`ferrymcp-everything
--transport http`), its tool `test_simple_text` (a constant text: the upstream's own work
is as small as it gets, so what is measured is the hop). Three targets are benched in turn,
in every run: the upstream directly, `ferrymcp gateway` (an mcp.json naming the upstream by
URL; the tool is `fx__test_simple_text`) and FastMCP's proxy (same tool name), each for
`--duration` at each concurrency after a warm-up, over one client connection (`ferrymcp
bench URL --tool T -c N -d D --json`). Reported: medians over the runs of calls/s, p50 and
p99, and the added p50 (through the proxy minus direct, both medians of the same runs) with
the ratio FastMCP / ferrymcp. Needs a release build (`cargo build --release -p
ferrymcp-cli -p ferrymcp-tests`) and FastMCP in benches/.deps/fastmcp (scripts/bench.sh
installs it from benches/peers/python/requirements-fastmcp.txt).
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = "test_simple_text"


class Listening:
    """A process that prints `listening on URL` on stdout; stopped when closed."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.close()
            raise SystemExit(f"{command[0]} printed {line!r} instead of its URL")
        self.url = line.removeprefix("listening on ").strip()

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ready(url: str, ferrymcp: Path) -> None:
    """Waits until `url` answers (FastMCP prints its URL before it listens)."""
    for _ in range(100):
        if subprocess.run([str(ferrymcp), "inspect", url, "--json"], capture_output=True).returncode == 0:
            return
        time.sleep(0.1)
    raise SystemExit(f"{url} never answered")


def bench(ferrymcp: Path, url: str, tool: str, concurrency: int, duration: str, warmup: str) -> dict:
    command = [
        str(ferrymcp),
        "bench",
        url,
        "--tool",
        tool,
        "-c",
        str(concurrency),
        "-d",
        duration,
        "--warmup",
        warmup,
        "--json",
    ]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({out.returncode}): {out.stderr}")
    figures = json.loads(out.stdout)
    return {"rate": figures["callsPerSecond"], "p50": figures["latencyMs"]["p50"], "p99": figures["latencyMs"]["p99"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    parser.add_argument("--duration", default="5s")
    parser.add_argument("--warmup", default="1s")
    parser.add_argument("--ferrymcp", type=Path, default=ROOT / "target/release/ferrymcp")
    parser.add_argument("--fixture", type=Path, default=ROOT / "target/release/ferrymcp-everything")
    parser.add_argument("--fastmcp-python", type=Path, default=ROOT / "benches/.deps/fastmcp/bin/python")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()

    upstream = Listening([str(args.fixture), "--transport", "http", "--port", "0"])
    scratch = Path(tempfile.mkdtemp(prefix="ferrymcp-gateway-bench-"))
    config = scratch / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fx": {"url": upstream.url}}}))
    gateway = Listening([str(args.ferrymcp), "gateway", str(config), "--port", "0"])
    proxy_script = Path(__file__).with_name("fastmcp_proxy.py")
    fastmcp = Listening([str(args.fastmcp_python), str(proxy_script), upstream.url, str(free_port())])
    try:
        ready(fastmcp.url, args.ferrymcp)
        targets = {
            "direct": (upstream.url, TOOL),
            "ferrymcp gateway": (gateway.url, f"fx__{TOOL}"),
            "FastMCP proxy": (fastmcp.url, TOOL),
        }
        raw: dict[str, dict[str, list[dict]]] = {str(c): {t: [] for t in targets} for c in args.concurrency}
        for run in range(args.runs):
            for concurrency in args.concurrency:
                for name, (url, tool) in targets.items():
                    figures = bench(args.ferrymcp, url, tool, concurrency, args.duration, args.warmup)
                    raw[str(concurrency)][name].append(figures)
                    print(f"run {run + 1}, c={concurrency}, {name}: {figures}", file=sys.stderr)
    finally:
        for process in (fastmcp, gateway, upstream):
            process.close()

    print("| in flight | target | calls/s | p50 (ms) | p99 (ms) | added p50 (ms) |")
    print("|---|---|---|---|---|---|")
    summary = {}
    for concurrency, by_target in raw.items():
        medians = {
            name: {key: statistics.median(r[key] for r in runs) for key in ("rate", "p50", "p99")}
            for name, runs in by_target.items()
        }
        direct = medians["direct"]["p50"]
        for name, m in medians.items():
            added = "" if name == "direct" else f"{m['p50'] - direct:.3f}"
            print(f"| {concurrency} | {name} | {m['rate']:,.0f} | {m['p50']:.3f} | {m['p99']:.3f} | {added} |")
        ours = medians["ferrymcp gateway"]["p50"] - direct
        theirs = medians["FastMCP proxy"]["p50"] - direct
        ratio = theirs / ours if ours > 0 else float("inf")
        print(f"| {concurrency} | FastMCP / ferrymcp, added p50 | | | | {ratio:.1f}x |")
        summary[concurrency] = {"medians": medians, "addedP50Ms": {"ferrymcp": ours, "fastmcp": theirs}, "ratio": ratio}
    if args.json:
        args.json.write_text(json.dumps({"raw": raw, "summary": summary}, indent=2))


if __name__ == "__main__":
    main()
