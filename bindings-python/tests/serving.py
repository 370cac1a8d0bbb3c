"""Servers as real processes on 127.0.0.1 for the HTTP tests: started, waited for until
they announce their URL (on stdout or stderr, which are read together), then stopped
with SIGINT (a clean exit is part of what the tests check). The output is drained on a
thread so a chatty server never blocks on it."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
RUST_EVERYTHING_BIN = REPO / "target" / "release" / "ferrymcp-everything"
# Generous bounds that only keep a broken server from hanging the suite.
STOP_LIMIT = 30.0
START_LIMIT = 30.0


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
        self._drain = threading.Thread(target=self.lines.extend, args=(self.process.stdout,), daemon=True)
        self._drain.start()

    def stop(self) -> int:
        """SIGINT, and the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(STOP_LIMIT)

    def output(self) -> str:
        """Everything the server wrote (after `stop`: to its end)."""
        self._drain.join(STOP_LIMIT)
        return "".join(self.lines)


class Listening:
    """A peer script given a free port of 127.0.0.1 as its first argument, up once it accepts
    connections (for peers that announce nothing); `base` is its root, `url` its `/mcp`."""

    def __init__(self, script: Path, *args: str) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        command = [sys.executable, str(script), str(self.port), *args]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + START_LIMIT
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    assert self.process.stderr is not None
                    raise AssertionError(f"{script.name} did not listen: {self.process.stderr.read()}") from None
                time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def uvicorn(factory: str, module: str = "asgi_server", *options: str) -> Served:
    """A factory of peers/<module>.py under uvicorn (with uvicorn's `options`); `url` is
    the server's root."""
    command = [sys.executable, "-m", "uvicorn", "--factory", f"{module}:{factory}", "--port", "0", *options]
    return Served([*command, "--app-dir", str(HERE / "peers")], r"Uvicorn running on (http://\S+)")


def rust_everything() -> Served:
    return Served([str(RUST_EVERYTHING_BIN), "--transport", "http", "--port", "0"], r"listening on (\S+)")


def make_certs(directory: Path) -> dict[str, Path]:
    """A test CA and, signed by it, a server certificate for 127.0.0.1/localhost and a
    client certificate (mutual TLS), made with openssl in `directory` (skips the test
    without openssl, except in CI, which must have it)."""
    import os
    import shutil

    import pytest

    openssl = shutil.which("openssl")
    if openssl is None:
        assert "CI" not in os.environ, "CI must have openssl"
        pytest.skip("openssl is not installed")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], cwd=directory, check=True, capture_output=True)

    key = ("-newkey", "rsa:2048", "-nodes", "-days", "1")
    run("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=ca")
    (directory / "server.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    (directory / "client.cnf").write_text("extendedKeyUsage=clientAuth\n")
    signed_by_ca = ("-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1")
    for name in ("server", "client"):
        run("req", *key[:3], "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
        run("x509", "-req", "-in", f"{name}.csr", *signed_by_ca, "-out", f"{name}.pem", "-extfile", f"{name}.cnf")
    names = [
        ("ca", "ca.pem"),
        ("cert", "server.pem"),
        ("key", "server.key"),
        ("client_cert", "client.pem"),
        ("client_key", "client.key"),
    ]
    return {n: directory / f for n, f in names}
