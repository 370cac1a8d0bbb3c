"""Smoke test of an installed ferrymcp (run by scripts/packaging/python.sh with the
interpreter of a fresh virtualenv the package was installed into from its sdist).

Checks that what got installed is the package itself, not the source tree (the native
module lives in that venv's site-packages), that its metadata is complete, and that it
works: a quick-start server started as a real child process over stdio, called by
ferrymcp's client in both protocol eras.
"""

import asyncio
import sys
import sysconfig
import tempfile
from importlib import metadata
from pathlib import Path

import ferrymcp
from ferrymcp import _native

SERVER = """
from ferrymcp.server.fastmcp import FastMCP

mcp = FastMCP("smoke", version="1.0.0")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


if __name__ == "__main__":
    mcp.run()
"""


def check_installed() -> None:
    site = Path(sysconfig.get_paths()["platlib"]).resolve()
    native = Path(_native.__file__).resolve()
    assert native.is_relative_to(site), f"ferrymcp._native comes from {native}, not from {site}"
    meta = metadata.metadata("ferrymcp")
    for field in ("Summary", "License-Expression", "Requires-Python", "Keywords", "Description-Content-Type"):
        assert meta.get(field), f"metadata lacks {field}"
    assert meta.get_all("Project-URL") and meta.get_all("Classifier"), "metadata lacks URLs or classifiers"


async def call_over_stdio(server: Path) -> None:
    for mode in ("legacy", "2026-07-28"):
        async with ferrymcp.Client([sys.executable, str(server)], mode=mode) as client:
            result = await client.call_tool("add", {"a": 2, "b": 40})
            assert result.structured_content == {"result": 42}, result


def main() -> None:
    check_installed()
    with tempfile.TemporaryDirectory() as directory:
        server = Path(directory) / "server.py"
        server.write_text(SERVER)
        asyncio.run(call_over_stdio(server))
    print(f"python smoke: ferrymcp {metadata.version('ferrymcp')} from {Path(_native.__file__).name} ok")


if __name__ == "__main__":
    main()
