"""The client side (issue 17): every client program of `CLIENTS` (matrix.py) against one fixed
server, ferrymcp's Rust `ferrymcp-echo`, over stdio (the client starts the server) and over
Streamable HTTP (this script starts it on a free port for each run, and stops it after).
Several rounds, each running every client on every transport one after the other, the order
reversed every other round. One JSON line per run goes to `clients.jsonl` (beside a
run.py output when `--out-dir` names its directory, where report.py finds it).

    python benches/e2e/clients.py [--rounds 5] [--seconds 2] [--clients KEY,KEY]
                                  [--transports stdio,http] [--out-dir DIR]

Prints the path of clients.jsonl. scripts/bench.sh passes it the arguments it passes run.py;
run.py's filters (`--only`, `--scenarios`) are ignored here, so `--rounds` and `--seconds`
are shared.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from matrix import CLIENT_SERVER_HTTP, CLIENT_SERVER_STDIO, CLIENT_TRANSPORTS, CLIENTS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    argv = [str(ROOT / a) if a.startswith("target/") else a.replace("{port}", str(port)) for a in CLIENT_SERVER_HTTP]
    server = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"the HTTP server {argv} did not listen on {port}") from None
            time.sleep(0.02)


def run_one(client, transport: str, seconds: float) -> dict:
    argv = [*client.argv, "--seconds", str(seconds)]
    server = None
    if transport == "stdio":
        argv += ["stdio", *(str(ROOT / a) for a in CLIENT_SERVER_STDIO)]
    else:
        server, url = start_http_server()
        argv += ["--server-pid", str(server.pid), "http", url]
    try:
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120 + 4 * seconds)
    except subprocess.TimeoutExpired as e:
        return {"error": f"timed out after {e.timeout:.0f} s"}
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip() or f"exit status {done.returncode}")[-500:]}
    return {"run": json.loads(lines[-1])}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--clients", default="", help="client keys of matrix.CLIENTS (comma-separated)")
    parser.add_argument("--transports", default=",".join(CLIENT_TRANSPORTS))
    parser.add_argument("--out-dir", type=Path, help="where clients.jsonl goes (default: a new results/raw/<stamp>/)")
    args, _ = parser.parse_known_args()  # run.py's own filters are not for this script
    transports = [t for t in CLIENT_TRANSPORTS if t in args.transports.split(",")]
    clients = [c for c in CLIENTS if not args.clients or c.key in args.clients.split(",")]
    out_dir = args.out_dir or ROOT / "benches/results/raw" / time.strftime("%Y%m%d-%H%M%S")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "clients.jsonl"
    with open(path, "w") as out:
        for round_ in range(args.rounds):
            order = clients if round_ % 2 == 0 else clients[::-1]
            for transport in transports:
                for client in order:
                    if transport not in client.transports:
                        continue
                    started = time.time()
                    record = {"round": round_, "client": client.key, "transport": transport}
                    record |= run_one(client, transport, args.seconds)
                    out.write(json.dumps(record) + "\n")
                    out.flush()
                    status = "ok" if "run" in record else "FAILED: " + record["error"][-200:]
                    print(
                        f"round {round_ + 1}/{args.rounds} client {transport:5} {client.key:22} "
                        f"{time.time() - started:5.1f} s {status}",
                        file=sys.stderr,
                    )
    print(path)


if __name__ == "__main__":
    main()
