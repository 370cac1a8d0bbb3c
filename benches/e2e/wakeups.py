"""Wake-ups and CPU per sequential call of stdio servers (Linux; benches/README.md, issue 17).

Starts each server with pipes (or, with `--socket`, Unix socket pairs, what Node's
child_process gives a child) as its stdin and stdout, initializes a 2025-11-25 session, makes
`--warmup` sequential `tools/call echo` calls, then `--calls` more, and reads the server's
voluntary context switches (`/proc/PID/task/*/status`) and CPU time
(`/proc/PID/task/*/schedstat`, nanoseconds) before and after those: per call, summed over
its threads and by thread name. Load-independent or nearly so, unlike wall-clock figures;
the client-side p50 it also prints (this driver's own round trip) is only for ratios between
servers run alternately in the same minutes.

    python3 wakeups.py --runs 3 NAME=COMMAND... [NAME=COMMAND...]

Servers are run in turn, the order reversed every other round. Prints one JSON line per run
and a median summary.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import socket
import statistics
import subprocess
import time
from collections import defaultdict


def threads(pid: int) -> dict[int, tuple[str, int, int]]:
    """tid -> (name, voluntary context switches, CPU ns) for each thread of `pid`."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = dict(line.split(":\t", 1) for line in f.read().splitlines() if ":\t" in line)
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu = int(f.read().split()[0])
        except FileNotFoundError:
            continue
        out[int(tid)] = (status["Name"].strip(), int(status["voluntary_ctxt_switches"]), cpu)
    return out


class Server:
    def __init__(self, command: list[str], use_socket: bool) -> None:
        if use_socket:
            # As Node's child_process (libuv) gives a child: one socket pair per stream.
            ours, theirs = socket.socketpair()
            ours_out, theirs_out = socket.socketpair()
            self.process = subprocess.Popen(command, stdin=theirs.fileno(), stdout=theirs_out.fileno())
            theirs.close()
            theirs_out.close()
            self.stdin_fd = ours.detach()
            self.stdout = ours_out.makefile("rb")
            ours_out.close()
        else:
            read, write = os.pipe()
            self.process = subprocess.Popen(command, stdin=read, stdout=subprocess.PIPE)
            os.close(read)
            self.stdin_fd = write
            assert self.process.stdout is not None
            self.stdout = self.process.stdout
        self.next_id = 0

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        os.write(self.stdin_fd, json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while True:
            line = self.stdout.readline()
            if not line:
                raise RuntimeError(f"{method}: the server closed stdout")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def notify(self, method: str) -> None:
        os.write(self.stdin_fd, json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")

    def close(self) -> int:
        os.close(self.stdin_fd)
        return self.process.wait(timeout=30)


def run(name: str, command: list[str], warmup: int, calls: int, use_socket: bool) -> dict:
    server = Server(command, use_socket)
    info = {"name": "wakeups", "version": "1.0.0"}
    server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info})
    server.notify("notifications/initialized")
    args = {"name": "echo", "arguments": {"text": "hello"}}
    for _ in range(warmup):
        server.request("tools/call", args)
    pid = server.process.pid
    before = threads(pid)
    latencies = []
    for _ in range(calls):
        start = time.perf_counter_ns()
        server.request("tools/call", args)
        latencies.append(time.perf_counter_ns() - start)
    after = threads(pid)
    code = server.close()
    by_name: dict[str, float] = defaultdict(float)
    switches = cpu = 0
    for tid, (thread, vcs, ns) in after.items():
        old = before.get(tid, (thread, 0, 0))
        by_name[thread] += (vcs - old[1]) / calls
        switches += vcs - old[1]
        cpu += ns - old[2]
    return {
        "server": name,
        "stdio": "socket" if use_socket else "pipe",
        "switches_per_call": round(switches / calls, 3),
        "by_thread": {k: round(v, 3) for k, v in sorted(by_name.items()) if v >= 0.005},
        "cpu_us_per_call": round(cpu / calls / 1000, 2),
        "p50_us": round(statistics.median(latencies) / 1000, 1),
        "exit": code,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("servers", nargs="+", metavar="NAME=COMMAND")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=3000)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--socket", action="store_true", help="Unix socket pairs as the server's stdin and stdout")
    options = parser.parse_args()
    servers = [(spec.split("=", 1)[0], shlex.split(spec.split("=", 1)[1])) for spec in options.servers]
    results = defaultdict(list)
    for round_ in range(options.runs):
        for name, command in servers if round_ % 2 == 0 else servers[::-1]:
            result = run(name, command, options.warmup, options.calls, options.socket)
            print(json.dumps(result), flush=True)
            results[name].append(result)
    for name, rows in results.items():
        median = {k: statistics.median(r[k] for r in rows) for k in ("switches_per_call", "cpu_us_per_call", "p50_us")}
        switches = ", ".join(str(r["switches_per_call"]) for r in rows)
        print(
            f"{name}: switches/call {switches} (median {median['switches_per_call']}), "
            f"CPU {median['cpu_us_per_call']} us/call, driver p50 {median['p50_us']} us"
        )


if __name__ == "__main__":
    main()
