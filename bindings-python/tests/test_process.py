"""How ferrymcp processes start and stop: real child processes, every exit code checked.

- EOF on stdin ends a stdio server with exit code 0, also while a tool is running.
- Ctrl-C (SIGINT) ends a stdio server with exit code 0 and nothing on stderr, also while an
  async or a sync tool is running. This is ferrymcp's choice: the official SDK (`mcp`
  2.3.0) dies of the signal (exit status -2) after printing a KeyboardInterrupt
  traceback through anyio; a server stopped on purpose is not an error, as uvicorn
  (which serves the official SDK's HTTP transport) also exits 0 on Ctrl-C.
- A `fork()`ed child can use ferrymcp, and so can the parent after the fork.
- Interpreter shutdown with clients, connections and calls left open neither hangs nor
  crashes, run after run.

"Promptly" is checked without timing: the busy tools wait ten minutes, far longer than
the tests wait for an exit, so an exit that waited for them would fail the test.
"""

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("ferrymcp._native")

from raw_stdio import LEGACY, PATIENCE, RawServer
from seed_tools import seed_with_import

PROCESS = Path(__file__).resolve().parent / "process"
BUSY_TOOLS = ["nap", "block"]
RUNS = 20


@pytest.fixture
def quickstart(tmp_path: Path) -> list[str]:
    return [sys.executable, str(seed_with_import("ferrymcp", tmp_path))]


def busy_server(tmp_path: Path, tool: str) -> RawServer:
    """A busy server with `tool` running (its marker file exists)."""
    marker = tmp_path / "running"
    server = RawServer([sys.executable, str(PROCESS / "busy_server.py"), str(marker)], LEGACY)
    server.initialize()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool}}, "CallToolRequest")
    # The only way to learn that a sync tool has started: it says so in the file system.
    while not marker.exists():
        assert server.process.poll() is None, server.stderr()
        time.sleep(0.05)
    return server


def assert_quiet(stderr: str) -> None:
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr


def test_stdin_eof_ends_the_server_with_exit_code_0(quickstart: list[str]) -> None:
    server = RawServer(quickstart, LEGACY)
    server.initialize()
    assert server.close() == 0


@pytest.mark.parametrize("tool", BUSY_TOOLS)
def test_stdin_eof_during_a_call_ends_the_server_with_exit_code_0(tmp_path: Path, tool: str) -> None:
    server = busy_server(tmp_path, tool)
    assert server.close() == 0


def test_ctrl_c_ends_an_idle_server_cleanly(quickstart: list[str]) -> None:
    server = RawServer(quickstart, LEGACY)
    server.initialize()
    code, stderr = server.interrupt()
    assert code == 0
    assert_quiet(stderr)


@pytest.mark.parametrize("tool", BUSY_TOOLS)
def test_ctrl_c_during_a_call_ends_the_server_cleanly(tmp_path: Path, tool: str) -> None:
    server = busy_server(tmp_path, tool)
    code, stderr = server.interrupt()
    assert code == 0
    assert_quiet(stderr)


def test_a_forked_child_can_use_ferrymcp() -> None:
    run = subprocess.run(
        [sys.executable, str(PROCESS / "fork_child.py")], capture_output=True, text=True, timeout=PATIENCE
    )
    assert run.returncode == 0, run.stderr


def _exit_code(way: str) -> tuple[int, str]:
    run = subprocess.run(
        [sys.executable, str(PROCESS / "unclosed.py"), way], capture_output=True, text=True, timeout=PATIENCE
    )
    return run.returncode, run.stderr


@pytest.mark.parametrize("way", ["client", "stdio", "in-flight", "live-loop"])
def test_interpreter_shutdown_with_things_left_open(way: str) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(_exit_code, [way] * RUNS))
    failures = [(code, stderr) for code, stderr in outcomes if code != 0 or "Fatal Python error" in stderr]
    assert failures == [], f"{len(failures)} of {RUNS} runs failed; first: {failures[:1]}"
