"""Servers as real processes on 127.0.0.1 for the HTTP tests: started, waited for until
they announce their URL (on stdout or stderr, which are read together), then stopped
with SIGINT (a clean exit is part of what the tests check). The output is drained on a
thread so a chatty server never blocks on it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RUST_EVERYTHING_BIN = REPO / "target" / "release" / "ferrymcp-everything"
# A generous bound that only keeps a broken server from hanging the suite.
STOP_LIMIT = 30.0


class Served:
    def __init__(self, command: list[str], announce: str) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert self.process.stdout is not None
        self.lines: list[str] = []
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(announce, line)
            if found:
                self.url = found.group(1)
                break
        else:
            raise AssertionError(f"{command[0]} exited before listening: {''.join(self.lines)}")
        threading.Thread(target=self.lines.extend, args=(self.process.stdout,), daemon=True).start()

    def stop(self) -> int:
        """SIGINT, and the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(STOP_LIMIT)


def uvicorn(factory: str, module: str = "asgi_server") -> Served:
    """A factory of peers/<module>.py under uvicorn; `url` is the server's root."""
    command = [sys.executable, "-m", "uvicorn", "--factory", f"{module}:{factory}", "--port", "0"]
    return Served([*command, "--app-dir", str(HERE / "peers")], r"Uvicorn running on (http://\S+)")


def rust_everything() -> Served:
    return Served([str(RUST_EVERYTHING_BIN), "--transport", "http", "--port", "0"], r"listening on (\S+)")
