"""Echo-tool calls per second over stdio: ferrymcp against the official Python SDK, side by
side.

A raw JSON-RPC driver (no SDK on the client side, so the client costs both the same) starts
each server as a fresh process, runs the legacy handshake, then times `tools/call echo`:
one at a time, and with 64 requests in flight. Servers alternate (A B A B ...) for several
rounds; the report gives medians and the ferrymcp/official ratio per round.

    python benches/e2e/stdio_echo.py [--rounds 5] [--calls 2000]

Interim driver until the Rust load driver of issue 7 replaces it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVERS = {"ferrymcp": HERE / "servers/echo_ferrymcp.py", "official": HERE / "servers/echo_official.py"}


class Server:
    def __init__(self, script: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.next_id = 0

    def send(self, method: str, params: dict | None = None, notify: bool = False) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def recv(self) -> dict:
        while True:
            message = json.loads(self.proc.stdout.readline())
            if "id" in message:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message

    def handshake(self) -> float:
        start = time.perf_counter()
        self.send("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.recv()
        self.send("notifications/initialized", notify=True)
        return time.perf_counter() - start

    def call(self) -> None:
        self.send("tools/call", {"name": "echo", "arguments": {"text": "hello world"}})

    def sequential(self, calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            self.call()
            self.recv()
        return calls / (time.perf_counter() - start)

    def in_flight(self, calls: int, window: int = 64) -> float:
        start = time.perf_counter()
        sent = received = 0
        while received < calls:
            while sent < calls and sent - received < window:
                self.call()
                sent += 1
            self.recv()
            received += 1
        return calls / (time.perf_counter() - start)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    figures: dict[str, dict[str, list[float]]] = {name: {"startup_ms": [], "sequential": [], "in_flight_64": []} for name in SERVERS}
    for _ in range(args.rounds):
        for name, script in SERVERS.items():
            started = time.perf_counter()
            server = Server(script)
            server.handshake()
            figures[name]["startup_ms"].append((time.perf_counter() - started) * 1e3)
            server.sequential(200)  # warm-up
            figures[name]["sequential"].append(server.sequential(args.calls))
            figures[name]["in_flight_64"].append(server.in_flight(args.calls * 2))
            server.close()
    print(f"{args.rounds} rounds, {args.calls} calls each (medians, min-max; ratio per round)")
    for metric in ("startup_ms", "sequential", "in_flight_64"):
        ours, theirs = figures["ferrymcp"][metric], figures["official"][metric]
        ratios = [a / b for a, b in zip(ours, theirs)] if metric != "startup_ms" else [b / a for a, b in zip(ours, theirs)]
        unit = "ms" if metric == "startup_ms" else "calls/s"
        print(
            f"{metric:>14}: ferrymcp {statistics.median(ours):9.1f} {unit} ({min(ours):.1f}-{max(ours):.1f})"
            f"  official {statistics.median(theirs):9.1f} ({min(theirs):.1f}-{max(theirs):.1f})"
            f"  ferrymcp is {statistics.median(ratios):.1f}x"
        )


if __name__ == "__main__":
    main()
