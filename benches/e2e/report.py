"""Turns one run.py output (runs.jsonl) into benches/results/latest.md and latest.png:
medians with min–max over the rounds, ratios against the peer of the same language taken
per round (so a slow moment of the shared machine hits both sides of a ratio), and the
issue-7 targets marked met or missed.

    python benches/e2e/report.py benches/results/raw/<stamp>/runs.jsonl [--note TEXT] [--out FILE.md]
                                 [--clients clients.jsonl]

The client side (clients.py) goes in as its own section when a clients.jsonl lies beside
runs.jsonl (or is named with `--clients`).

`--out` writes the tables (and the chart beside them, same name with .png) elsewhere than
latest.md, for a partial run (`run.py --scenarios ...`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from collections import defaultdict
from pathlib import Path

from matrix import BURST, CLIENT_TRANSPORTS, CLIENTS, IMPLS, PACED_LANGUAGES, PACED_RATES, TOOLS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benches/results"
BY_KEY = {i.key: i for i in IMPLS}
CLIENT_BY_KEY = {c.key: c for c in CLIENTS}

# (scenario, metric path, label, unit, higher is better)
STDIO = [
    ("stdio", "startup_ms", "startup", "ms", False),
    ("stdio", "sequential.calls_per_s", "seq calls/s", "", True),
    ("stdio", "sequential.p50_us", "seq p50", "µs", False),
    ("stdio", "sequential.p99_us", "seq p99", "µs", False),
    ("stdio", "in_flight.calls_per_s", "64 in flight calls/s", "", True),
    ("stdio", "in_flight.p50_us", "64 p50", "µs", False),
    ("stdio", "in_flight.p99_us", "64 p99", "µs", False),
    ("stdio", "in_flight.server_cpu_us_per_call", "CPU/call (64)", "µs", False),
    ("stdio", "echo_1mib.mb_per_s", "1 MiB echo", "MB/s", True),
    ("tools-list", "tools_list.p50_us", f"tools/list ({TOOLS})", "µs", False),
    ("stdio", "rss_idle_kib", "RSS idle", "MB", False),
    ("stdio", "rss_peak_kib", "RSS peak", "MB", False),
]
# The figures a ceiling bounds (its startup, latency tails and memory say nothing).
CEILING_METRICS = {"sequential.calls_per_s", "in_flight.calls_per_s", "in_flight.server_cpu_us_per_call", "echo_1mib.mb_per_s"}
HTTP = [
    ("sequential.calls_per_s", "seq calls/s", "", True),
    ("sequential.p50_us", "seq p50", "µs", False),
    ("in_flight.calls_per_s", "64 concurrent calls/s", "", True),
    ("in_flight.p50_us", "64 p50", "µs", False),
    ("in_flight.p99_us", "64 p99", "µs", False),
    ("in_flight.server_cpu_us_per_call", "CPU/call (64)", "µs", False),
    ("rss_idle_kib", "RSS idle", "MB", False),
    ("rss_peak_kib", "RSS peak", "MB", False),
]

# The `report` scenario: the realistic tool, sequential and 64 in flight over stdio.
REPORT = [
    ("sequential.calls_per_s", "seq calls/s", "", True),
    ("sequential.p50_us", "seq p50", "µs", False),
    ("sequential.server_cpu_us_per_call", "seq CPU/call", "µs", False),
    ("in_flight.calls_per_s", "64 in flight calls/s", "", True),
    ("in_flight.p50_us", "64 p50", "µs", False),
    ("in_flight.server_cpu_us_per_call", "CPU/call (64)", "µs", False),
    ("rss_peak_kib", "RSS peak", "MB", False),
    ("result_bytes", "result", "bytes", False),
]
# The `burst` scenario: BURST echo calls written at once, every answer awaited.
BURST_METRICS = [
    ("burst.answered", "answered", "", True),
    ("burst.errors", "errors", "", False),
    ("burst.seconds", "all answered in", "s", False),
    ("burst.calls_per_s", "calls/s", "", True),
    ("burst.p99_us", "p99 to answer", "µs", False),
    ("burst.server_cpu_us_per_call", "CPU/call", "µs", False),
    ("burst.rss_before_kib", "RSS before", "MB", False),
    ("burst.rss_peak_kib", "RSS peak", "MB", False),
]

# The client side (clients.py's clients.jsonl): each client program against the same server.
CLIENT_METRICS = [
    ("sequential.calls_per_s", "seq calls/s", "", True),
    ("sequential.p50_us", "seq p50", "µs", False),
    ("sequential.p99_us", "seq p99", "µs", False),
    ("sequential.client_cpu_us_per_call", "seq client CPU/call", "µs", False),
    ("in_flight.calls_per_s", "64 in flight calls/s", "", True),
    ("in_flight.p50_us", "64 p50", "µs", False),
    ("in_flight.p99_us", "64 p99", "µs", False),
    ("in_flight.client_cpu_us_per_call", "64 client CPU/call", "µs", False),
    ("in_flight.server_cpu_us_per_call", "64 server CPU/call", "µs", False),
    ("connect_ms", "connect", "ms", False),
    ("rss_peak_kib", "client RSS peak", "MB", False),
]

# Per offered rate of the `paced` scenario: (metric, label, unit, higher is better).
PACED = [
    ("calls_per_s", "calls/s", "", True),
    ("p50_us", "p50", "µs", False),
    ("server_cpu_us_per_call", "CPU/call", "µs", False),
]


def dig(run: dict, path: str):
    for part in path.split("."):
        if not isinstance(run, dict) or part not in run:
            return None
        run = run[part]
    if path.endswith("_kib"):
        return run * 1024 / 1e6  # MB
    return run


def load(path: Path):
    values = defaultdict(dict)  # (impl, scenario, metric) -> {round: value}
    errors = defaultdict(list)
    rounds = set()
    for line in path.read_text().splitlines():
        record = json.loads(line)
        rounds.add(record["round"])
        if "error" in record:
            errors[(record["impl"], record["scenario"])].append(record["error"])
            continue
        run = record["run"]
        for metric in {m for _, m, *_ in STDIO} | {m for m, *_ in HTTP + REPORT + BURST_METRICS}:
            value = dig(run, metric)
            if value is not None:
                values[(record["impl"], record["scenario"], metric)][record["round"]] = value
        for phase in run.get("paced", []):
            for metric, *_ in PACED:
                values[(record["impl"], "paced", f"paced.{phase['offered_per_s']}.{metric}")][record["round"]] = phase[metric]
    return values, errors, sorted(rounds)


def load_clients(path: Path):
    """clients.jsonl: values keyed (client, "client-<transport>", metric), errors, and the
    protocol versions each client negotiated."""
    values, errors, protocols = defaultdict(dict), defaultdict(list), defaultdict(set)
    if not path.exists():
        return values, errors, protocols
    for line in path.read_text().splitlines():
        record = json.loads(line)
        scenario = f"client-{record['transport']}"
        if "error" in record:
            errors[(record["client"], scenario)].append(record["error"])
            continue
        run = record["run"]
        # The v1 TypeScript line does not expose it over stdio (it speaks the handshake era).
        protocols[(record["client"], scenario)].add(run.get("protocol_version") or "not exposed")
        for metric, *_ in CLIENT_METRICS:
            value = dig(run, metric)
            if value is not None:
                values[(record["client"], scenario, metric)][record["round"]] = value
    return values, errors, protocols


def client_tables(values, errors, protocols) -> list[str]:
    """The client side: one table per transport, with ferrymcp's ratio rows."""
    if not values and not errors:
        return []
    lines = ["", "## The client side: clients against the same server", "",
             ("Each SDK's high-level `Client` (benches/e2e/clients.py; benches/README.md, \"Issue 17: the client side\") "
              "calls `echo` on the same server, ferrymcp's Rust `ferrymcp-echo`: one at a time, then 64 in flight. "
              "Client CPU/call is the client process's own CPU time (every thread, not the server's); the server's "
              "is beside it. Ratio rows: > 1 means ferrymcp's client is better.")]
    head = "| client | protocol | " + " | ".join(f"{l}{' (' + u + ')' if u else ''}" for _, l, u, _ in CLIENT_METRICS) + " |"
    for transport in CLIENT_TRANSPORTS:
        scenario = f"client-{transport}"
        ran = [c for c in CLIENTS if any((c.key, scenario, m) in values for m, *_ in CLIENT_METRICS) or (c.key, scenario) in errors]
        if not ran:
            continue
        title = "stdio" if transport == "stdio" else "Streamable HTTP (127.0.0.1)"
        lines += ["", f"### {title}", "", head, "|---" * (len(CLIENT_METRICS) + 2) + "|"]
        for c in ran:
            if (c.key, scenario) in errors and not any((c.key, scenario, m) in values for m, *_ in CLIENT_METRICS):
                reason = errors[(c.key, scenario)][0].splitlines()[-1][:160].replace("|", "\\|")
                lines.append(f"| {c.label} | failed: {reason} |" + " |" * len(CLIENT_METRICS))
                continue
            protocol = ", ".join(sorted(protocols.get((c.key, scenario), {"?"})))
            lines.append(f"| {c.label} | {protocol} | " + " | ".join(cell(values, (c.key, scenario, m)) for m, *_ in CLIENT_METRICS) + " |")
        for c in ran:
            if c.ours and c.peer:
                for peer in [c.peer, *c.also]:
                    if not any((peer, scenario, m) in values for m, *_ in CLIENT_METRICS):
                        continue
                    lines.append(f"| {c.label} against the {CLIENT_BY_KEY[peer].label} | | " + " | ".join(
                        ratio_cell(ratios(values, c.key, peer, scenario, m, h)) for m, _, _, h in CLIENT_METRICS) + " |")
        failed = [(c, errors[(c.key, scenario)]) for c in ran if (c.key, scenario) in errors]
        lines += [""] if failed else []
        for c, messages in failed:
            lines.append(f"- {c.label}, {transport}: {len(messages)} failed run(s): `{messages[0].splitlines()[-1][:200]}`")
    return lines


def fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def cell(values, key) -> str:
    series = list(values.get(key, {}).values())
    if not series:
        return "–"
    if len(series) == 1:
        return fmt(series[0])
    return f"{fmt(statistics.median(series))} ({fmt(min(series))}–{fmt(max(series))})"


def ratios(values, ours: str, peer: str, scenario: str, metric: str, higher: bool) -> list[float]:
    a, b = values.get((ours, scenario, metric), {}), values.get((peer, scenario, metric), {})
    return [(a[r] / b[r]) if higher else (b[r] / a[r]) for r in a if r in b and a[r] and b[r]]


def ratio_cell(series: list[float]) -> str:
    if not series:
        return "–"
    def r(x: float) -> str:
        return f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"

    return f"{r(statistics.median(series))}× ({r(min(series))}–{r(max(series))})"


def median(values, key):
    series = list(values.get(key, {}).values())
    return statistics.median(series) if series else None


def versions(commit: str) -> dict:
    def out(argv):
        try:
            return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError:
            return "?"

    def pip_version(venv, package):
        return out([f"benches/.deps/{venv}/bin/python", "-c", f"import importlib.metadata as m; print(m.version('{package}'))"])

    def npm_version(package):
        path = ROOT / "benches/.deps/node/node_modules" / package / "package.json"
        return json.loads(path.read_text())["version"] if path.exists() else "?"

    lock = (ROOT / "benches/peers/rmcp-echo/Cargo.lock").read_text()
    rmcp = lock.split('name = "rmcp"\nversion = "')[1].split('"')[0] if 'name = "rmcp"' in lock else "?"
    return {
        "ferrymcp": commit,
        "mcp (PyPI)": pip_version("official", "mcp"),
        "fastmcp (PyPI)": pip_version("fastmcp", "fastmcp"),
        "@modelcontextprotocol/server (npm)": npm_version("@modelcontextprotocol/server"),
        "@modelcontextprotocol/client (npm)": npm_version("@modelcontextprotocol/client"),
        "@modelcontextprotocol/sdk (npm)": npm_version("@modelcontextprotocol/sdk"),
        "rmcp (crates.io)": rmcp,
        "Python": platform.python_version(),
        "Node.js": out(["node", "--version"]),
        "rustc": out(["rustc", "--version"]),
    }


def machine() -> str:
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} CPUs ({cpu}), {mem / 2**20:.0f} GiB RAM, Linux {platform.release()}"


def targets(values) -> list[tuple[str, str, str]]:
    """Each issue-7 target (and issue 17's Node lines): (target, figure, met / missed / not measured)."""
    rows = []

    def check(name, figure, ok):
        rows.append((name, figure, "not measured" if ok is None else ("met" if ok else "**missed**")))

    def m(impl, scenario, metric):
        return median(values, (impl, scenario, metric))

    py_tp, py_cpu = m("ferrymcp-python", "stdio", "in_flight.calls_per_s"), m("ferrymcp-python", "stdio", "in_flight.server_cpu_us_per_call")
    check("Python, stdio, 64 in flight: >= 60,000 calls/s, <= 15 µs CPU/call",
          f"{fmt(py_tp)} calls/s, {fmt(py_cpu)} µs" if py_tp else "–", py_tp and py_tp >= 60000 and py_cpu <= 15)
    p50 = m("ferrymcp-python", "stdio", "sequential.p50_us")
    check("Python, stdio, sequential p50 <= 0.10 ms", f"{fmt(p50)} µs" if p50 else "–", p50 and p50 <= 100)
    start = m("ferrymcp-python", "stdio", "startup_ms")
    check("Python, startup to first response <= 80 ms", f"{fmt(start)} ms" if start else "–", start and start <= 80)
    rss = m("ferrymcp-python", "stdio", "rss_idle_kib")
    check("Python, RSS idle <= 25 MB", f"{fmt(rss)} MB" if rss else "–", rss and rss <= 25)
    n_tp, n_cpu = m("ferrymcp-node", "stdio", "in_flight.calls_per_s"), m("ferrymcp-node", "stdio", "in_flight.server_cpu_us_per_call")
    check("Node, stdio, 64 in flight: >= 120,000 calls/s, <= 8 µs CPU/call",
          f"{fmt(n_tp)} calls/s, {fmt(n_cpu)} µs" if n_tp else "–", n_tp and n_tp >= 120000 and n_cpu <= 8)
    # Issue 17: Node's sequential p50 at or under both TypeScript SDK lines, and 64 in flight
    # >= 150,000 calls/s at <= 8 µs CPU per call.
    n_p50 = m("ferrymcp-node", "stdio", "sequential.p50_us")
    for peer in ("ts-sdk", "ts-sdk-v1"):
        p_p50 = m(peer, "stdio", "sequential.p50_us")
        check(f"Node, stdio, sequential p50 at or under the {BY_KEY[peer].label}'s (issue 17)",
              f"{fmt(n_p50)} against {fmt(p_p50)} µs" if n_p50 and p_p50 else "–", (n_p50 <= p_p50) if n_p50 and p_p50 else None)
    check("Node, stdio, 64 in flight: >= 150,000 calls/s, <= 8 µs CPU/call (issue 17)",
          f"{fmt(n_tp)} calls/s, {fmt(n_cpu)} µs" if n_tp else "–", n_tp and n_tp >= 150000 and n_cpu <= 8)
    n_start = m("ferrymcp-node", "stdio", "startup_ms")
    check("Node, startup <= 120 ms", f"{fmt(n_start)} ms" if n_start else "–", n_start and n_start <= 120)
    for impl in ("ferrymcp-python", "ferrymcp-node", "ferrymcp-rust"):
        t = m(impl, "tools-list", "tools_list.p50_us")
        check(f"tools/list, 1000 tools, {BY_KEY[impl].label}: <= 1 ms", f"{fmt(t / 1000)} ms" if t else "–", t and t <= 1000)
    for impl in ("ferrymcp-python", "ferrymcp-node", "ferrymcp-rust"):
        r = ratios(values, impl, "ceiling", "stdio", "echo_1mib.mb_per_s", True)
        share = statistics.median(r) if r else None
        check(f"1 MiB echo, {BY_KEY[impl].label}: >= 90% of the stdio ceiling", f"{share:.0%} of the ceiling" if share else "–", share and share >= 0.9)
    for impl, peer, times in (("ferrymcp-python", "mcp-python", 30), ("ferrymcp-node", "ts-sdk", 5), ("ferrymcp-node", "ts-sdk-v1", 5)):
        language = BY_KEY[impl].language.capitalize()
        name = f"HTTP, {language}, 64 concurrent: >= {times}x the {BY_KEY[peer].label}"
        per_mode = {mode: ratios(values, impl, peer, f"http-{mode}", "in_flight.calls_per_s", True) for mode in ("legacy", "modern")}
        if not any(per_mode.values()):
            check(name, f"{BY_KEY[impl].label} serves no HTTP yet", None)
            continue
        got = {mode: statistics.median(r) for mode, r in per_mode.items() if r}
        check(name, "; ".join(f"{mode} {x:.1f}×" for mode, x in got.items()), all(x >= times for x in got.values()))
    ahead = ratios(values, "ferrymcp-rust", "rmcp", "stdio", "in_flight.calls_per_s", True)
    to_ceiling = ratios(values, "ceiling", "ferrymcp-rust", "stdio", "in_flight.calls_per_s", True)
    if ahead and to_ceiling:
        a, c = statistics.median(ahead), statistics.median(to_ceiling)
        check("Rust fixture, stdio: ahead of rmcp, within 1.5x of the ceiling (64 in flight)",
              f"{a:.2f}× rmcp; ceiling is {c:.2f}× ahead", a > 1 and c <= 1.5)
    for mode in ("legacy", "modern"):
        ahead = ratios(values, "ferrymcp-rust", "rmcp", f"http-{mode}", "in_flight.calls_per_s", True)
        to_ceiling = ratios(values, "ceiling", "ferrymcp-rust", f"http-{mode}", "in_flight.calls_per_s", True)
        name = f"Rust fixture, HTTP ({mode}): ahead of rmcp, within 1.5x of the ceiling (64 concurrent)"
        if ahead and to_ceiling:
            a, c = statistics.median(ahead), statistics.median(to_ceiling)
            check(name, f"{a:.2f}× rmcp; ceiling is {c:.2f}× ahead", a > 1 and c <= 1.5)
        else:
            check(name, "–", None)
    return rows


def markdown(values, errors, rounds, meta, note, clients=None) -> str:
    lines = [
        "# End-to-end benchmark: ferrymcp against the official SDKs",
        "",
        f"Generated by `scripts/bench.sh` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        f"Rounds: {len(rounds)}; each timed phase: {meta.get('seconds', '?')} s.",
        "",
        f"Machine: {machine()}.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in versions(meta.get("commit", "?")).items()) + ".",
        "",
        "Absolute figures move with the machine (it may be shared with other work); the "
        "ratios, taken between runs of the same round, are what to read. Cells are the median "
        "over the rounds with the min–max in brackets.",
    ]
    if note:
        lines += ["", f"**Note:** {note}"]
    lines += ["", "## stdio", "", "| implementation | " + " | ".join(f"{l}{' (' + u + ')' if u else ''}" for _, _, l, u, _ in STDIO) + " |",
              "|---" * (len(STDIO) + 1) + "|"]
    for impl in IMPLS:
        lines.append(f"| {impl.label} | " + " | ".join(cell(values, (impl.key, s, m)) for s, m, *_ in STDIO) + " |")
    lines += ["", "## Streamable HTTP (127.0.0.1)", "",
              "| implementation | mode | " + " | ".join(f"{l}{' (' + u + ')' if u else ''}" for _, l, u, _ in HTTP) + " |",
              "|---" * (len(HTTP) + 2) + "|"]
    for impl in IMPLS:
        for mode in ("legacy", "modern"):
            scenario = f"http-{mode}"
            if impl.http is None:
                continue
            if mode not in impl.http_modes:
                lines.append(f"| {impl.label} | {mode} | not served by this SDK line |" + " |" * (len(HTTP) - 1))
                continue
            if (impl.key, scenario) in errors and not any((impl.key, scenario, m) in values for m, *_ in HTTP):
                reason = errors[(impl.key, scenario)][0].splitlines()[-1][:160].replace("|", "\\|")
                lines.append(f"| {impl.label} | {mode} | not served: {reason} |" + " |" * (len(HTTP) - 1))
                continue
            lines.append(f"| {impl.label} | {mode} | " + " | ".join(cell(values, (impl.key, scenario, m)) for m, *_ in HTTP) + " |")
    paced = [i for i in IMPLS if i.language in PACED_LANGUAGES]
    columns = [(rate, m, l, u, h) for rate in PACED_RATES for m, l, u, h in PACED]
    lines += ["", "## stdio at fixed offered rates (below saturation)", "",
              ("Echo calls offered at a fixed rate, one phase per rate (`ferrymcp bench --driver raw --rate`): "
               "what a server costs when it mostly waits. Ratio rows: > 1 means ferrymcp is better."), "",
              "| implementation | " + " | ".join(f"{rate:,}/s: {l}{' (' + u + ')' if u else ''}" for rate, _, l, u, _ in columns) + " |",
              "|---" * (len(columns) + 1) + "|"]
    for impl in paced:
        lines.append(f"| {impl.label} | " + " | ".join(cell(values, (impl.key, "paced", f"paced.{rate}.{m}")) for rate, m, *_ in columns) + " |")
    for impl in paced:
        if impl.ours and impl.peer:
            for peer in [impl.peer, *impl.also]:
                lines.append(f"| {impl.label} against the {BY_KEY[peer].label} | " + " | ".join(
                    ratio_cell(ratios(values, impl.key, peer, "paced", f"paced.{rate}.{m}", h)) for rate, m, _, _, h in columns) + " |")
    lines += ["", "## ferrymcp against the peer of the same language (per-round ratios, > 1 means ferrymcp is better)", "",
              "Against the ceiling the ratio is the share of the ceiling ferrymcp reaches (CPU: ceiling's CPU / ours).", "",
              "| ours | peer | " + " | ".join(l for _, _, l, _, _ in STDIO) + " |", "|---" * (len(STDIO) + 2) + "|"]
    for impl in IMPLS:
        if impl.ours and impl.peer:
            for peer in [impl.peer, *impl.also, "ceiling"]:
                lines.append(f"| {impl.label} | {BY_KEY[peer].label} | " + " | ".join(
                    ratio_cell(ratios(values, impl.key, peer, s, m, h)) if peer != "ceiling" or m in CEILING_METRICS else "–"
                    for s, m, _, _, h in STDIO) + " |")
    lines += ["", "## Issue-7 targets", "", "| target | figure (median) | verdict |", "|---|---|---|"]
    lines += [f"| {t} | {f} | {v} |" for t, f, v in targets(values)]
    lines += scenario_table(values, errors, "report", REPORT, "The realistic tool (`report`), stdio", (
        "The `report` tool (benches/README.md, \"The realistic tool\"): ten arguments validated against a schema "
        "with a nested object and an array, a structured result with an outputSchema and 64 KiB of text, "
        "called one at a time and 64 in flight. Ratio rows: > 1 means ferrymcp is better."))
    lines += scenario_table(values, errors, "burst", BURST_METRICS, f"{BURST:,} requests in flight, stdio", (
        f"{BURST:,} echo calls written at once (`ferrymcp bench --driver raw --burst {BURST}`), then every answer "
        "awaited; a run fails unless each id is answered exactly once. RSS peak is the high-water mark after it."))
    if clients is not None:
        lines += client_tables(*clients)
    if errors:
        lines += ["", "## Failed runs", ""]
        for (impl, scenario), messages in sorted(errors.items()):
            lines.append(f"- {BY_KEY[impl].label}, {scenario}: {len(messages)} run(s): `{messages[0].splitlines()[-1][:200]}`")
    lines += ["", "![calls/s and CPU per call](latest.png)", ""]
    return "\n".join(lines)


def scenario_table(values, errors, scenario: str, metrics, title: str, intro: str) -> list[str]:
    """One scenario's table (every implementation that ran it) and ferrymcp's ratio rows."""
    ran = [i for i in IMPLS if any((i.key, scenario, m) in values for m, *_ in metrics) or (i.key, scenario) in errors]
    if not ran:
        return []
    lines = ["", f"## {title}", "", intro, "",
             "| implementation | " + " | ".join(f"{l}{' (' + u + ')' if u else ''}" for _, l, u, _ in metrics) + " |",
             "|---" * (len(metrics) + 1) + "|"]
    for impl in ran:
        if (impl.key, scenario) in errors and not any((impl.key, scenario, m) in values for m, *_ in metrics):
            reason = errors[(impl.key, scenario)][0].splitlines()[-1][:160].replace("|", "\\|")
            lines.append(f"| {impl.label} | failed: {reason} |" + " |" * (len(metrics) - 1))
            continue
        lines.append(f"| {impl.label} | " + " | ".join(cell(values, (impl.key, scenario, m)) for m, *_ in metrics) + " |")
    for impl in ran:
        if impl.ours and impl.peer:
            for peer in [impl.peer, *impl.also]:
                if not any((peer, scenario, m) in values for m, *_ in metrics):
                    continue
                lines.append(f"| {impl.label} against the {BY_KEY[peer].label} | " + " | ".join(
                    ratio_cell(ratios(values, impl.key, peer, scenario, m, h)) for m, _, _, h in metrics) + " |")
    return lines


def chart(values, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        ("stdio", "in_flight.calls_per_s", "stdio, 64 in flight: calls/s (higher is better)"),
        ("stdio", "in_flight.server_cpu_us_per_call", "stdio, 64 in flight: server CPU µs per call (lower is better)"),
        ("http-legacy", "in_flight.calls_per_s", "HTTP (legacy session), 64 concurrent: calls/s"),
    ]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 4 * len(panels)))
    for ax, (scenario, metric, title) in zip(axes, panels):
        labels, heights, lows, highs, colours = [], [], [], [], []
        for impl in IMPLS:
            series = list(values.get((impl.key, scenario, metric), {}).values())
            if not series:
                continue
            med = statistics.median(series)
            labels.append(impl.label.replace(" (", "\n("))
            heights.append(med)
            lows.append(med - min(series))
            highs.append(max(series) - med)
            colours.append("#e8731c" if impl.ours else ("#444444" if impl.language == "ceiling" else "#9aa7b8"))
        ax.bar(range(len(heights)), heights, yerr=[lows, highs], color=colours, capsize=3)
        ax.set_xticks(range(len(heights)), labels, fontsize=7)
        ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        for x, (h, high) in enumerate(zip(heights, highs)):
            ax.text(x, (h + high) * 1.15, fmt(h), ha="center", va="bottom", fontsize=7)
        ax.margins(y=0.15)
    fig.suptitle("ferrymcp (orange) beside the official SDKs (grey) and the ceilings (black); bars: median, whiskers: min–max", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", type=Path)
    parser.add_argument("--note", default="")
    parser.add_argument("--clients", type=Path, help="a clients.py output (default: clients.jsonl beside RUNS)")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.md", help="the Markdown file (the chart goes beside it as .png)")
    args = parser.parse_args()
    values, errors, rounds = load(args.runs)
    meta_path = args.runs.with_name("meta.json")
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    clients = load_clients(args.clients or args.runs.with_name("clients.jsonl"))
    args.out.write_text(markdown(values, errors, rounds, meta, args.note, clients))
    chart(values, args.out.with_suffix(".png"))
    print(args.out)


if __name__ == "__main__":
    main()
