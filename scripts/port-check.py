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

`--suite stories` measures the SDK's example stories instead (`examples/stories/` on main: one
feature per folder, a `server.py`, often a `server_lowlevel.py`, and a `client.py` that asserts
and exits non-zero on failure). Each story runs through its own command line, as its README
says to run it, on every leg its `manifest.toml` entry allows: stdio, and self-hosted HTTP
(`--http`, plus `--http --legacy` for dual-era stories), against `server` and, where there is
one, `server_lowlevel`. Each leg runs three times, on three copies of the stories:

    official   as they are, on the official `mcp` package (the baseline)
    server     every file but the clients (`client.py`, `_harness.py`) rewritten to ferrymcp:
               the official client's assertions against the ported server
    full       every file rewritten: ferrymcp's client against ferrymcp's server

A leg counts only when its official run passes (exit code 0). The legs run one at a time
(the auth stories pin port 8000).

    python scripts/port-check.py --suite stories --sdk /path/to/python-sdk.git --python .venv/bin/python
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


def rewrite_file(path: Path) -> None:
    text = path.read_text()
    for pattern, replacement in REWRITES:
        text = pattern.sub(replacement, text)
    path.write_text(text)


def rewrite(root: Path) -> None:
    for path in root.rglob("*.py"):
        rewrite_file(path)


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


STORY_CLIENT_FILES = ("client.py", "_harness.py")


def story_legs(stories: Path) -> list[tuple[str, list[str]]]:
    """Every (leg id, argv after `python -m`) the manifest allows, in manifest order."""
    import tomllib

    manifest = tomllib.loads((stories / "manifest.toml").read_text())
    legs: list[tuple[str, list[str]]] = []
    for name, entry in manifest["story"].items():
        cfg = manifest["defaults"] | entry
        servers = ["server", "server_lowlevel"] if (stories / name / "server_lowlevel.py").exists() else ["server"]
        transports: list[tuple[str, list[str]]] = []
        if cfg["server_export"] == "factory" and not cfg["needs_http"]:
            transports.append(("stdio", []))
        transports.append(("http", ["--http"]))
        if cfg["era"] == "dual":
            transports.append(("http-legacy", ["--http", "--legacy"]))
        for server in servers:
            for transport, flags in transports:
                extra = [] if server == "server" else ["--server", server]
                legs.append((f"{name}/{server}/{transport}", ["-m", f"stories.{name}.client", *flags, *extra]))
    return legs


def run_story_leg(python: str, examples: Path, argv: list[str], timeout: float) -> str:
    """The leg's outcome: "passed", or the last line of its error output.

    The official repository installs `stories` into its environment (a workspace member), and
    a stdio client hands its server child only a few environment variables, so PYTHONPATH
    would not reach the servers: a `.pth` file in the interpreter's site-packages puts this
    tree's `examples/` on every child's path for the leg, and is removed after it."""
    import os

    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    pth = Path(site, "_ferrymcp_port_check_stories.pth")
    pth.write_text(f"{examples}\n")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        done = subprocess.run(
            [python, *argv],
            cwd=examples,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:.0f} s"
    finally:
        pth.unlink(missing_ok=True)
    if done.returncode == 0:
        return "passed"
    # Exception groups indent their members with "| "; the last exception line is the cause.
    lines = [line.strip().lstrip("|+- ").strip() for line in (done.stderr + done.stdout).splitlines()]
    raised = [line for line in lines if re.match(r"^[\w.]*(Error|Exception|Exit|Closed|Timeout)\w*\b", line)]
    noise = ("File ", "^", "~", "During handling", "The above", "Traceback", "FAIL:")
    meaningful = raised or [line for line in lines if line and not line.startswith(noise)]
    return (meaningful[-1] if meaningful else f"exit {done.returncode}")[:160]


def stories_suite(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="port-check-stories-") as tmp:
        trees = {label: Path(tmp, label) for label in ("official", "server", "full")}
        trees["official"].mkdir()
        sdk, ref = args.sdk, args.ref
        if sdk is None:
            subprocess.run(
                ["git", "clone", "-q", "--depth", "1", "--branch", ref, OFFICIAL, str(Path(tmp, "clone"))],
                check=True,
            )
            sdk, ref = str(Path(tmp, "clone", ".git")), "HEAD"
        archive = subprocess.run(
            ["git", "--git-dir", sdk, "archive", ref, "examples/stories"], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(trees["official"])], input=archive.stdout, check=True)
        for label in ("server", "full"):
            shutil.copytree(trees["official"], trees[label])
        for path in (trees["server"] / "examples" / "stories").rglob("*.py"):
            if path.name not in STORY_CLIENT_FILES:
                rewrite_file(path)
        rewrite(trees["full"])
        if args.keep:
            shutil.copytree(trees["full"], args.keep, dirs_exist_ok=True)
        legs = story_legs(trees["official"] / "examples" / "stories")
        only = args.only.split(",") if args.only else None
        legs = [leg for leg in legs if not only or any(part in leg[0] for part in only)]
        results: dict[str, dict[str, str]] = {label: {} for label in trees}
        for leg, argv in legs:
            for label, tree in trees.items():
                if label != "official" and results["official"][leg] != "passed":
                    continue
                results[label][leg] = run_story_leg(args.python, tree / "examples", argv, args.timeout)
            if args.list:
                print(leg, {label: seen[leg] for label, seen in results.items() if leg in seen}, flush=True)
    passing = sorted(leg for leg, seen in results["official"].items() if seen == "passed")
    print(f"official SDK: {len(passing)} of {len(legs)} story legs pass")
    for label, meaning in (("server", "official client, ported server"), ("full", "ported client and server")):
        kept = [leg for leg in passing if results[label][leg] == "passed"]
        share = 100 * len(kept) // max(1, len(passing))
        print(f"ferrymcp, {meaning}: {len(kept)} of those {len(passing)} pass ({share}%)")
        kinds = collections.Counter(results[label][leg] for leg in passing if results[label][leg] != "passed")
        for message, count in kinds.most_common(args.show):
            print(f"  {count:4}  {message}")
    if args.list:
        for leg in passing:
            if results["server"][leg] != "passed" or results["full"][leg] != "passed":
                print(f"{leg}\n    server: {results['server'][leg]}\n    full:   {results['full'][leg]}")
    return 0


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
    parser.add_argument(
        "--only", help="comma-separated test modules (docs) or leg id parts (stories: tools,mrtr/server)"
    )
    parser.add_argument("--list", action="store_true", help="also list each failing test with its first error")
    parser.add_argument("--keep", help="copy the ported tree here, to run its tests by hand")
    parser.add_argument(
        "--suite",
        choices=("docs", "stories"),
        default="docs",
        help="the documentation tests (default) or the example stories",
    )
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per story leg")
    args = parser.parse_args()
    if args.suite == "stories":
        return stories_suite(args)
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
