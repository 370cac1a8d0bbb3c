"""Checks, before anything is timed, that every implementation of the matrix that serves the
`report` tool (matrix.py, `report=True`) answers it the same way: each server is started over
stdio, lists `report` with an `outputSchema`, answers one call with the arguments of
benches/peers/report-args.json, and refuses two calls whose arguments break the schema
(a wrong enum value, a nested field of the wrong type). The results must be equal (the
result's content and structuredContent; envelope members such as `_meta` are ignored), and
the text 64 KiB. Exits 1, naming the implementation and the difference, otherwise.

    python benches/e2e/check_tools.py [--only KEY,KEY]

scripts/bench.sh runs it after installing the peers. Plain JSON-RPC over pipes, standard
library only, so no client library decides anything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from matrix import IMPLS, REPORT_ARGS

ROOT = Path(__file__).resolve().parents[2]
REPORT_BYTES = 65536


class Server:
    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.next_id = 1
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "check-tools", "version": "0.1.0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        """The response to one request (result or error member)."""
        id_ = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, **({"params": params} if params is not None else {})})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed stdout (exit {self.proc.wait()})")
            message = json.loads(line)
            if message.get("id") == id_ and ("result" in message or "error" in message):
                return message

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def refused(response: dict) -> bool:
    """A call the server refused: a JSON-RPC error, or a tool result with isError."""
    return "error" in response or response["result"].get("isError") is True


def check(impl, args: dict) -> tuple[dict, list[str]]:
    """The comparable part of `impl`'s answer, and the problems found."""
    problems = []
    server = Server(impl.stdio)
    try:
        tools = server.request("tools/list")["result"]["tools"]
        tool = next((t for t in tools if t["name"] == "report"), None)
        if tool is None:
            return {}, ["does not list the report tool"]
        if tool.get("outputSchema", {}).get("type") != "object":
            problems.append(f"lists report without an object outputSchema: {tool.get('outputSchema')}")
        response = server.request("tools/call", {"name": "report", "arguments": args})
        if refused(response):
            return {}, [f"refused the valid call: {json.dumps(response)[:300]}"]
        result = response["result"]
        answer = {"content": result.get("content"), "structuredContent": result.get("structuredContent")}
        text = (result.get("content") or [{}])[0].get("text", "")
        if len(text.encode()) != REPORT_BYTES:
            problems.append(f"the text is {len(text.encode())} bytes, not {REPORT_BYTES}")
        for name, bad in (
            ("level outside its enum", {**args, "level": "urgent"}),
            ("owner.age a string", {**args, "owner": {**args["owner"], "age": "old"}}),
        ):
            if not refused(server.request("tools/call", {"name": "report", "arguments": bad})):
                problems.append(f"accepted arguments with {name}")
        return answer, problems
    finally:
        server.close()


def difference(a, b, path: str = "") -> str | None:
    """Where two JSON values first differ (numbers compare by value: 7.5 == 7.5, 2 == 2.0)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}: present on one side only"
            found = difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} against {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = difference(x, y, f"{path}/{i}")
            if found:
                return found
        return None
    if a != b or isinstance(a, bool) != isinstance(b, bool):
        return f"{path}: {json.dumps(a)[:80]} against {json.dumps(b)[:80]}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    args = json.loads((ROOT / REPORT_ARGS).read_text())
    impls = [i for i in IMPLS if i.report and (not options.only or i.key in options.only.split(","))]
    reference = None
    failed = False
    for impl in impls:
        try:
            answer, problems = check(impl, args)
        except Exception as e:  # noqa: BLE001 - any failure of a server is reported by name
            answer, problems = {}, [f"{type(e).__name__}: {e}"]
        if answer and reference is None:
            reference = (impl, answer)
        elif answer and reference is not None:
            found = difference(reference[1], answer)
            if found:
                problems.append(f"differs from {reference[0].label} at {found}")
        failed |= bool(problems)
        print(f"{impl.label}: " + ("same result" if not problems else "; ".join(problems)), file=sys.stderr)
    return 1 if failed or reference is None else 0


if __name__ == "__main__":
    sys.exit(main())
