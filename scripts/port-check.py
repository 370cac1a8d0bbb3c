#!/usr/bin/env python3
"""Measures the drop-in promise on the official Python SDK's own material.

ferrymcp promises that code written for the official SDK runs when only its imports name
`ferrymcp`. This script measures that on the SDK's documentation tests (`docs_src/` and
`tests/docs_src/` of modelcontextprotocol/python-sdk): it exports them from a git checkout (or
clones the repository), runs them once as they are against the installed official `mcp`
package (the baseline: what the official SDK passes), then once more with every import
rewritten to `ferrymcp`, and prints both counts, the tests that pass with the official SDK and
fail with ferrymcp, and the first line of each failure, grouped.

Nothing of the official repository is committed here: it is exported into a temporary
directory for the run and removed afterwards. A developer tool, not a CI gate (the official
material changes under us; the issues quote its figures).

    python scripts/port-check.py --sdk /path/to/python-sdk.git --ref main [--python .venv/bin/python]
    python scripts/port-check.py --ref main   # clones https://github.com/modelcontextprotocol/python-sdk
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

OFFICIAL = "https://github.com/modelcontextprotocol/python-sdk"
PATHS = ["docs_src", "tests/docs_src"]

# Import rewrites, in order: the names official code uses for the SDK and its types package.
REWRITES = [
    (
        re.compile(r"^(\s*)from mcp_types(\.[\w.]+)? import", re.MULTILINE),
        r"\1from ferrymcp.types import",
    ),
    (
        re.compile(r"^(\s*)import mcp_types as ", re.MULTILINE),
        r"\1import ferrymcp.types as ",
    ),
    (
        re.compile(r"^(\s*)import mcp_types$", re.MULTILINE),
        r"\1import ferrymcp.types as mcp_types",
    ),
    (
        re.compile(r"^(\s*)from mcp(\.[\w.]+)? import", re.MULTILINE),
        r"\1from ferrymcp\2 import",
    ),
    (
        re.compile(r"^(\s*)import mcp(\.[\w.]+)?( as \w+)?$", re.MULTILINE),
        r"\1import ferrymcp\2\3",
    ),
    (re.compile(r"error::mcp\."), "error::ferrymcp."),
]


def export(sdk: str | None, ref: str, into: Path) -> None:
    """Copies PATHS at `ref` from a git directory (or a fresh shallow clone) into `into`."""
    if sdk is None:
        clone = into / ".clone"
        subprocess.run(
            [
                "git",
                "clone",
                "-q",
                "--depth",
                "1",
                "--branch",
                ref,
                OFFICIAL,
                str(clone),
            ],
            check=True,
        )
        sdk, ref = str(clone / ".git"), "HEAD"
    archive = subprocess.run(
        ["git", "--git-dir", sdk, "archive", ref, *PATHS],
        check=True,
        capture_output=True,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    shutil.rmtree(into / ".clone", ignore_errors=True)
    (into / "tests" / "__init__.py").touch()
    # The official suite's own conftest needs its dev tooling (logfire); all the docs tests
    # need from it is the asyncio backend, which the official suite runs them on.
    (into / "tests" / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture(scope='session')\ndef anyio_backend() -> str:\n    return 'asyncio'\n"
    )


def rewrite(root: Path) -> None:
    for path in root.rglob("*.py"):
        text = path.read_text()
        for pattern, replacement in REWRITES:
            text = pattern.sub(replacement, text)
        path.write_text(text)


def run(python: str, root: Path, label: str, only: set[str] | None = None) -> dict[str, str]:
    """Runs each test file of `root` on its own (one file's import or configuration error must
    not hide the others); returns each test's outcome ("passed" or its first error line). A
    file that does not even collect counts each of its tests as that file's error."""
    outcomes: dict[str, str] = {}
    for module in sorted((root / "tests" / "docs_src").glob("test_*.py")):
        if only and module.stem not in only:
            continue
        report = root / f"{label}-{module.stem}.xml"
        done = subprocess.run(
            [
                python,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-o",
                "addopts=",
                f"--junitxml={report}",
                str(module.relative_to(root)),
            ],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        prefix = f"tests.docs_src.{module.stem}"
        if not report.exists() or done.returncode in (2, 3, 4):
            lines = [
                line
                for line in (done.stdout + done.stderr).splitlines()
                if line.startswith(("E ", "ERROR: ", "INTERNALERROR> E"))
            ]
            outcomes[prefix + "::*"] = (lines[-1] if lines else f"pytest exit {done.returncode}")[:160]
            if not report.exists():
                continue
        for case in ET.parse(report).getroot().iter("testcase"):
            name = f"{case.get('classname')}::{case.get('name')}"
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            if case.find("skipped") is not None:
                outcomes[name] = "skipped"
            elif problem is None:
                outcomes[name] = "passed"
            else:
                message = (problem.get("message") or problem.text or "").strip().splitlines()
                outcomes[name] = message[0][:160] if message else "failed"
    return outcomes


def outcome(result: dict[str, str], name: str) -> str:
    """A test's outcome, or its file's collection error when the file did not collect."""
    return result.get(name) or result.get(name.split("::")[0] + "::*", "not collected")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", help="a git directory of python-sdk (default: clone it)")
    parser.add_argument("--ref", default="main")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="an interpreter with mcp, ferrymcp, pytest, inline-snapshot, trio and opentelemetry-sdk",
    )
    parser.add_argument("--show", type=int, default=25, help="failure kinds to list")
    parser.add_argument("--only", help="comma-separated test modules to run (e.g. test_apps,test_mrtr)")
    parser.add_argument("--list", action="store_true", help="also list each failing test with its first error")
    parser.add_argument("--keep", help="copy the ported tree here, to run its tests by hand")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    with tempfile.TemporaryDirectory(prefix="port-check-") as tmp:
        official, ported = Path(tmp, "official"), Path(tmp, "ported")
        official.mkdir()
        export(args.sdk, args.ref, official)
        shutil.copytree(official, ported)
        rewrite(ported)
        if args.keep:
            shutil.copytree(ported, args.keep, dirs_exist_ok=True)
        baseline = run(args.python, official, "official", only)
        result = run(args.python, ported, "ported", only)
    passing = {name for name, seen in baseline.items() if seen == "passed"}
    kept = {name for name in passing if outcome(result, name) == "passed"}
    print(f"official SDK: {len(passing)} of {len(baseline)} tests pass")
    share = 100 * len(kept) // max(1, len(passing))
    print(f"ferrymcp (imports rewritten): {len(kept)} of those {len(passing)} pass ({share}%)")
    kinds = collections.Counter(outcome(result, name) for name in passing - kept)
    for message, count in kinds.most_common(args.show):
        print(f"  {count:4}  {message}")
    if args.list:
        for name in sorted(passing - kept):
            print(f"{name}\n    {outcome(result, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
