"""Startup and idle memory of the stdio echo servers, the way `ferrymcp bench --driver raw`
measures them (cli/src/bench/raw/stdio.rs), with the memory taken apart.

Startup is spawn -> the `initialize` answer read; then `notifications/initialized`, one
checked echo call, 200 ms of rest, and the figures of /proc/PID: `VmRSS` (what the
benchmark's "RSS idle" column shows), `RssAnon` and `RssFile`, the thread count, and with
`--maps` the resident KiB of each mapping (smaps, summed by file; anonymous mappings as
`[anon]`). Runs alternate between the implementations (A B A B ...), the order reversed
every other run; each figure is the median over the runs.

    python benches/e2e/idle.py [--runs 7] [--only KEY,KEY] [--maps] [--command KEY=ARGV ...]

KEY is a key of matrix.py (`ferrymcp-python`, `mcp-python`, `ferrymcp-rust`, `rmcp`, ...);
`--command NAME='prog arg ...'` adds a server of one's own (an A/B build, say), run from
the repository root.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from matrix import IMPLS

ROOT = Path(__file__).resolve().parents[2]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "ferrymcp-bench-raw", "version": "0.1.0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
ECHO = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "echo", "arguments": {"text": "hello world"}},
}


def _status(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM", "Threads"):
            fields[key] = int(value.split()[0])
    return fields


def _maps(pid: int) -> dict[str, int]:
    """Resident KiB by mapping: a file's name, or [heap], [stack], [anon]."""
    resident: dict[str, int] = defaultdict(int)
    name = "[anon]"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and not head[0].endswith(":"):
            name = os.path.basename(head[5]) if len(head) > 5 else "[anon]"
        elif head and head[0] == "Rss:":
            resident[name] += int(head[1])
    return dict(resident)


def _send(proc: subprocess.Popen, message: dict) -> None:
    proc.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    proc.stdin.flush()


def _answer(proc: subprocess.Popen, id_: int) -> dict:
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the server closed stdout before answering request {id_}")
        message = json.loads(line)
        if message.get("id") == id_:
            return message


def measure(argv: list[str], maps: bool) -> dict:
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        _send(proc, INITIALIZE)
        _answer(proc, 1)
        startup_ms = (time.perf_counter() - started) * 1e3
        _send(proc, INITIALIZED)
        _send(proc, ECHO)
        answer = _answer(proc, 2)
        if answer.get("result", {}).get("content", [{}])[0].get("text") != "hello world":
            raise RuntimeError(f"unexpected echo answer: {answer}")
        time.sleep(0.2)
        figures = {"startup_ms": startup_ms, **_status(proc.pid)}
        if maps:
            figures["maps"] = _maps(proc.pid)
        return figures
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="ferrymcp-python,mcp-python")
    parser.add_argument("--maps", action="store_true", help="resident KiB by mapping (the largest)")
    parser.add_argument("--command", action="append", default=[], help="NAME='prog arg ...' (a server of one's own)")
    args = parser.parse_args()
    servers = {i.key: i.stdio for i in IMPLS if i.key in args.only.split(",")}
    for spec in args.command:
        name, _, command = spec.partition("=")
        servers[name] = shlex.split(command)
    runs: dict[str, list[dict]] = {name: [] for name in servers}
    for run in range(args.runs):
        order = list(servers) if run % 2 == 0 else list(servers)[::-1]
        for name in order:
            runs[name].append(measure(servers[name], args.maps))
    for name, figures in runs.items():
        row = {
            key: statistics.median(f[key] for f in figures)
            for key in ("startup_ms", "VmRSS", "RssAnon", "RssFile", "Threads")
        }
        print(
            f"{name:24} startup {row['startup_ms']:7.1f} ms (min {min(f['startup_ms'] for f in figures):.1f})"
            f"  VmRSS {row['VmRSS'] / 1024:6.2f} MB  anon {row['RssAnon'] / 1024:6.2f}"
            f"  file {row['RssFile'] / 1024:6.2f}  threads {row['Threads']:.0f}"
        )
        if args.maps:
            names = {m for f in figures for m in f["maps"]}
            resident = {m: statistics.median(f["maps"].get(m, 0) for f in figures) for m in names}
            for mapping, kib in sorted(resident.items(), key=lambda item: -item[1])[:12]:
                print(f"    {kib:8.0f} KiB  {mapping}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
