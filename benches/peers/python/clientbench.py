"""What the Python client programs of the client-side benchmark share (issue 17, "The
client side"; benches/README.md), so they differ only in the SDK they import: connect with
the SDK's high-level `Client`, warm up, call `echo` one at a time for a phase, then keep 64
calls in flight for a phase, and print one JSON line.

    python client_X.py [--seconds 2] [--window 64] stdio CMD [ARG...]
    python client_X.py [--seconds 2] [--window 64] [--server-pid PID] http URL

The server is fixed (benches/e2e/clients.py runs ferrymcp's Rust `ferrymcp-echo`), so the
figures differ by the client alone. CPU per call is this process's own `utime + stime`
(`getrusage(RUSAGE_SELF)`, every thread, not the server child) over the phase divided by the
calls; the server's CPU per call (from `/proc`: the child over stdio, `--server-pid` over
HTTP) is reported beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import time
from typing import Any

TEXT = "hello world, this is a benchmark"
TICK = os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child_pids() -> list[int]:
    """This process's children, from /proc (the stdio server the SDK started)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            found.append(int(entry))
    return found


def process_cpu_s(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15)


def percentile(sorted_ns: list[int], q: float) -> float:
    return sorted_ns[min(len(sorted_ns) - 1, int(q * len(sorted_ns)))] / 1000 if sorted_ns else 0.0


def check(result: Any) -> None:
    if result.is_error or result.content[0].text != TEXT:
        raise SystemExit(f"echo answered wrongly: {result!r}")


async def phase(client: Any, seconds: float, window: int, server_pid: int | None) -> dict[str, Any]:
    """`window` callers, each calling `echo` in a loop until the phase ends (1: sequential)."""
    latencies: list[list[int]] = [[] for _ in range(window)]
    arguments = {"text": TEXT}
    cpu0, server0, start = own_cpu_s(), process_cpu_s(server_pid), time.perf_counter()
    deadline = start + seconds

    async def caller(out: list[int]) -> None:
        clock = time.perf_counter_ns
        end_ns = int(deadline * 1e9)
        while True:
            t0 = clock()
            if t0 >= end_ns:
                return
            await client.call_tool("echo", arguments)
            out.append(clock() - t0)

    if window == 1:
        await caller(latencies[0])
    else:
        await asyncio.gather(*(caller(out) for out in latencies))
    elapsed = time.perf_counter() - start
    cpu, server = own_cpu_s() - cpu0, process_cpu_s(server_pid)
    every = sorted(ns for out in latencies for ns in out)
    calls = len(every)
    report: dict[str, Any] = {
        "calls": calls,
        "seconds": round(elapsed, 4),
        "calls_per_s": round(calls / elapsed, 1),
        "p50_us": round(percentile(every, 0.50), 1),
        "p99_us": round(percentile(every, 0.99), 1),
        "client_cpu_us_per_call": round(cpu * 1e6 / calls, 2) if calls else None,
    }
    if server is not None and server0 is not None and calls:
        report["server_cpu_us_per_call"] = round((server - server0) * 1e6 / calls, 2)
    return report


async def main(client_class: Any, stdio_parameters: Any) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed phase")
    parser.add_argument("--window", type=int, default=64, help="calls in flight in the second phase")
    parser.add_argument("--server-pid", type=int, help="the HTTP server's pid, for its CPU per call")
    parser.add_argument("transport", choices=["stdio", "http"])
    parser.add_argument("target", nargs=argparse.REMAINDER, help="stdio: the server command; http: its URL")
    args = parser.parse_args()
    if not args.target:
        parser.error("no server command or URL")
    if args.transport == "stdio":
        target = stdio_parameters(command=args.target[0], args=args.target[1:])
    else:
        target = args.target[0]

    started = time.perf_counter()
    async with client_class(target) as client:
        connect_ms = (time.perf_counter() - started) * 1000
        check(await client.call_tool("echo", {"text": TEXT}))
        server_pid = args.server_pid
        if server_pid is None and args.transport == "stdio":
            children = child_pids()
            server_pid = children[0] if len(children) == 1 else None
        await phase(client, args.seconds / 4, args.window, None)  # warm-up
        sequential = await phase(client, args.seconds, 1, server_pid)
        in_flight = await phase(client, args.seconds, args.window, server_pid)
        in_flight["window"] = args.window
        protocol = client.protocol_version
    print(
        json.dumps(
            {
                "transport": args.transport,
                "protocol_version": protocol,
                "connect_ms": round(connect_ms, 2),
                "sequential": sequential,
                "in_flight": in_flight,
                "rss_peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            }
        ),
        flush=True,
    )


def run(client_class: Any, stdio_parameters: Any) -> None:
    asyncio.run(main(client_class, stdio_parameters))
