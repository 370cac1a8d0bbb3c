"""A client that writes JSON-RPC lines to a server process by hand, for the tests that
must see the wire itself: the exact request id, progress token and `inputRequests` keys a
handler sees or sends. Every message it sends or receives is checked against the
official JSON Schema of the revision in use (tests/mcp-schema).

Lines are read on a thread into a queue, so a silent server fails the test after a
generous wait instead of hanging it.
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import threading
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

SCHEMAS = Path(__file__).resolve().parents[2] / "tests" / "mcp-schema"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
PATIENCE = 30.0


@cache
def _validator(revision: str, name: str) -> jsonschema.protocols.Validator:
    document = json.loads((SCHEMAS / f"{revision}.schema.json").read_text())
    root = {"$schema": document["$schema"], "$ref": f"#/$defs/{name}", "$defs": document["$defs"]}
    return jsonschema.Draft202012Validator(root)


def check(revision: str, name: str, instance: Any) -> None:
    """Fails unless `instance` is a valid `name` of `revision`, listing every violation."""
    errors = [f"{e.message} at {list(e.absolute_path)}" for e in _validator(revision, name).iter_errors(instance)]
    assert not errors, f"{instance} is not a valid {name} ({revision}): {errors}"


def modern_meta(**capabilities: Any) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-client", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }


class RawServer:
    """A server child process and the lines it writes."""

    def __init__(self, command: list[str], revision: str) -> None:
        self.revision = revision
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.notifications: list[dict[str, Any]] = []
        self.leftover: list[dict[str, Any]] = []
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def send(self, message: dict[str, Any], definition: str) -> None:
        check(self.revision, definition, message)
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, id: Any, definition: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Sends a request and returns its response; notifications met on the way are
        kept in `notifications`."""
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params}, definition)
        while True:
            line = self._lines.get(timeout=PATIENCE)
            assert line, f"the server closed stdout; stderr: {self.stderr()}"
            message = json.loads(line)
            if "id" not in message:
                check(self.revision, "JSONRPCNotification", message)
                self.notifications.append(message)
                continue
            assert message["id"] == id, message
            check(self.revision, "JSONRPCResponse", message)
            return message

    def initialize(self) -> dict[str, Any]:
        """The legacy handshake; returns the initialize result."""
        params = {
            "protocolVersion": self.revision,
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "raw-client", "version": "1.0"},
        }
        result = self.request(0, "InitializeRequest", "initialize", params)["result"]
        check(self.revision, "InitializeResult", result)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"}, "InitializedNotification")
        return result

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def interrupt(self) -> tuple[int, str]:
        """Ctrl-C: sends SIGINT and returns the exit code and what went to stderr."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=PATIENCE)
        return code, self.stderr()

    def close(self) -> int:
        """Closes stdin (EOF) and returns the exit code; the messages the server wrote
        after the last awaited response are left in `leftover`."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=PATIENCE)
        self.leftover = [json.loads(line) for line in iter(lambda: self._lines.get(timeout=PATIENCE), b"")]
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()
        return code
