"""The `ferrymcp` command the wheel installs: the executable built from the repository's
`cli/` crate, shipped as a script of the wheel (pip puts it in the environment's bin/), the
same binary `cargo install ferrymcp-cli` and `npx ferrymcp` run. Checked as installed: its
version is the package's, it inspects and calls the Rust fixture, and its exit codes are
the command's own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from serving import RUST_EVERYTHING_BIN

import ferrymcp

COMMAND = Path(sysconfig.get_path("scripts")) / ("ferrymcp.exe" if sys.platform == "win32" else "ferrymcp")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COMMAND), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def test_the_wheel_installs_the_command_with_the_package_version() -> None:
    assert COMMAND.is_file(), f"{COMMAND} is not installed (the wheel's ferrymcp._native.data/scripts/ferrymcp)"
    assert shutil.which("ferrymcp", path=str(COMMAND.parent)) == str(COMMAND)
    out = run("--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"ferrymcp {ferrymcp.__version__}"


@pytest.mark.skipif(not RUST_EVERYTHING_BIN.exists(), reason="target/release/ferrymcp-everything is not built")
def test_the_command_inspects_and_calls_the_fixture() -> None:
    out = run("inspect", str(RUST_EVERYTHING_BIN), "--json")
    assert out.returncode == 0, out.stderr
    inventory = json.loads(out.stdout)
    assert inventory["serverInfo"]["name"] == "mcp-conformance-test-server"
    assert any(tool["name"] == "greet" for tool in inventory["tools"])
    called = run("call", str(RUST_EVERYTHING_BIN), "greet", "name=wheel")
    assert called.returncode == 0, called.stderr
    assert "wheel" in called.stdout
    # 2: an unknown tool, with the tools listed; 3: a server that cannot be started.
    unknown = run("call", str(RUST_EVERYTHING_BIN), "no_such_tool")
    assert unknown.returncode == 2 and "greet" in unknown.stderr
    assert run("inspect", "/nonexistent/server").returncode == 3
