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

`--suite examples` (with `--ref main` or `--ref v1.x`) measures the example servers
(`examples/snippets/servers`, `examples/mcpserver` or `examples/fastmcp`, and the packages of
`examples/servers` that serve stdio): each starts over stdio as it is and ported, a probe
written with the official client (from `--python`) initializes, lists, calls every tool with
arguments made from its input schema, reads every listed resource and gets every prompt,
and the two runs' JSON answers are compared (times, UUIDs, addresses and the server's version
normalised). A case counts only when its official run works; ASGI apps and servers checking
tokens are skipped. For v1.x the servers need `mcp<2`: `--server-python` names an
interpreter with it and ferrymcp.

    python scripts/port-check.py --suite examples --ref v1.x --sdk /path/to/python-sdk.git \
        --python .venv/bin/python --server-python /path/to/venv-mcp1/bin/python --list
"""

from __future__ import annotations

import argparse
import collections
import json
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
        re.compile(r"^(\s*)import mcp(\.[\w.]+)? as (\w+)$", re.MULTILINE),
        r"\1import ferrymcp\2 as \3",
    ),
    # `import mcp` / `import mcp.server.stdio` bind the name `mcp`, which the code then uses
    # (`mcp.server.stdio.stdio_server()`): the port binds it to ferrymcp.
    (
        re.compile(r"^(\s*)import mcp(\.[\w.]+)?$", re.MULTILINE),
        r"\1import ferrymcp\2\n\1import ferrymcp as mcp",
    ),
    (re.compile(r"error::mcp\."), "error::ferrymcp."),
]


def extract(sdk: str | None, ref: str, paths: list[str], into: Path) -> None:
    """Copies `paths` at `ref` from a git directory (or a fresh shallow clone) into `into`."""
    with tempfile.TemporaryDirectory(prefix="port-check-clone-") as scratch:
        if sdk is None:
            clone = Path(scratch, "clone")
            subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", ref, OFFICIAL, str(clone)], check=True)
            sdk, ref = str(clone / ".git"), "HEAD"
        archive = subprocess.run(["git", "--git-dir", sdk, "archive", ref, *paths], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def export(sdk: str | None, ref: str, into: Path) -> None:
    """Copies PATHS at `ref` into `into`, set up to run as the docs test suite."""
    extract(sdk, ref, list(PATHS), into)
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
        extract(args.sdk, args.ref, ["examples/stories"], trees["official"])
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


# --suite examples: the official examples' servers over stdio, probed by the official client.

EXAMPLE_DIRS = {
    "main": ["examples/snippets/servers", "examples/mcpserver", "examples/servers"],
    "v1.x": ["examples/snippets/servers", "examples/fastmcp", "examples/servers"],
}

# Started by the script in the server's interpreter: loads a single-file example, finds its
# high-level server object (official or ported: by class name, so that it imports neither) and
# runs it over stdio; a file without one (the low-level snippets) runs its own `run()`
# coroutine or, failing that, its `__main__` block.
EXAMPLE_LAUNCHER = """\
import asyncio, importlib, inspect, random, runpy, sys
from pathlib import Path

random.seed(0)  # the examples that make up values (weather) make up the same ones each run
if sys.argv[1] == "-m":
    sys.argv = sys.argv[2:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    sys.exit(0)
path = Path(sys.argv[1])
sys.path[:0] = [str(path.parent), str(path.parent.parent)]
sys.argv = [str(path)]
found = runpy.run_path(str(path), run_name="__port_check__")
servers = {k: v for k, v in found.items() if type(v).__name__ in ("MCPServer", "FastMCP")}
lowlevel = {
    k: v for k, v in found.items() if type(v).__name__ == "Server" and hasattr(v, "create_initialization_options")
}
if servers:
    name = next((n for n in ("mcp", "server", "app") if n in servers), next(iter(servers)))
    servers[name].run("stdio")
elif inspect.iscoroutinefunction(found.get("run")) or "__main__" in path.read_text():
    if inspect.iscoroutinefunction(found.get("run")):
        asyncio.run(found["run"]())
    else:
        runpy.run_path(str(path), run_name="__main__")
elif lowlevel:
    server = next(iter(lowlevel.values()))
    stdio = importlib.import_module(type(server).__module__.split(".")[0] + ".server.stdio")

    async def serve():
        async with stdio.stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    asyncio.run(serve())
else:
    sys.exit("NoServerError: no server object, run() or __main__ block in " + path.name)
"""

# Run by the script in ITS interpreter (the official `mcp` 2.x client): one stdio session
# against the server command given as JSON, every answer dumped as JSON on stdout.
EXAMPLE_PROBE = """\
import json, sys, traceback
import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

spec = json.loads(sys.argv[1])
OP_TIMEOUT = spec["op_timeout"]


def sample(schema, defs, depth=0):
    if not isinstance(schema, dict) or depth > 6:
        return "example"
    if "$ref" in schema:
        return sample(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            options = [o for o in schema[key] if not (isinstance(o, dict) and o.get("type") == "null")]
            return sample((options or schema[key])[0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return max(1.5, schema.get("minimum", 1.5))
    if kind == "boolean":
        return True
    if kind == "array":
        return [sample(schema.get("items", {}), defs, depth + 1)] if schema.get("minItems") else []
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: sample(props.get(k, {}), defs, depth + 1) for k in schema.get("required", [])}
    return "example"


def dump(value):
    return value.model_dump(mode="json", by_alias=True, exclude_none=True)


async def step(out, key, call):
    try:
        with anyio.fail_after(OP_TIMEOUT):
            out[key] = dump(await call())
    except Exception as exc:
        error = getattr(exc, "error", None)
        if error is not None and hasattr(error, "code"):
            out[key] = {"error": {"code": error.code, "message": error.message}}
        else:
            out[key] = {"error": f"{type(exc).__name__}: {exc}"[:300]}


async def main():
    out = {}
    params = StdioServerParameters(command=spec["command"], args=spec["args"], env=spec["env"], cwd=spec["cwd"])
    with open(spec["errlog"], "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                with anyio.fail_after(OP_TIMEOUT):
                    out["initialize"] = dump(await session.initialize())
                caps = out["initialize"].get("capabilities", {})
                tools, resources, prompts = [], [], []
                if "tools" in caps:
                    await step(out, "tools/list", session.list_tools)
                    tools = out["tools/list"].get("tools", [])
                if "resources" in caps:
                    await step(out, "resources/list", session.list_resources)
                    await step(out, "resources/templates/list", session.list_resource_templates)
                    resources = out["resources/list"].get("resources", [])
                if "prompts" in caps:
                    await step(out, "prompts/list", session.list_prompts)
                    prompts = out["prompts/list"].get("prompts", [])
                for tool in tools:
                    schema = tool.get("inputSchema", {})
                    args = sample(schema, schema.get("$defs", {}))
                    await step(out, "tools/call " + tool["name"] + " " + json.dumps(args),
                               lambda t=tool, a=args: session.call_tool(t["name"], a))
                for resource in resources:
                    await step(out, "resources/read " + resource["uri"],
                               lambda r=resource: session.read_resource(r["uri"]))
                for prompt in prompts:
                    args = {a["name"]: "example" for a in prompt.get("arguments", []) if a.get("required")}
                    await step(out, "prompts/get " + prompt["name"],
                               lambda p=prompt, a=args: session.get_prompt(p["name"], a))
    print(json.dumps(out))


try:
    anyio.run(main)
except BaseException:
    import re
    lines = [l.strip().lstrip("|+- ").strip() for l in traceback.format_exc().splitlines()]
    raised = [l for l in lines if re.match(r"^[\\w.]*(Error|Exception|Exit|Closed)\\w*\\b", l)]
    print(json.dumps({"probe-failed": (raised or [l for l in lines if l])[-1][:300]}))
"""

TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
CLOCK = re.compile(r"\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b")


def normalise(value: object) -> object:
    """What legitimately varies between two runs: times, UUIDs, object addresses, the
    implementation's version."""
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items() if k not in ("version", "requestId")}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, str):
        value = ADDRESS.sub(" at <address>", value)
        return CLOCK.sub("<clock>", UUID.sub("<uuid>", TIMESTAMP.sub("<time>", value)))
    return value


def differences(a: object, b: object, path: str = "") -> list[str]:
    """Every differing path (official value vs ported value), in the official answer's order."""
    if isinstance(a, dict) and isinstance(b, dict):
        found: list[str] = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                side = "official" if key in a else "ported"
                found.append(f"{path}/{key} (only {side}: {json.dumps(a.get(key, b.get(key)))[:80]})")
            else:
                found += differences(a[key], b[key], f"{path}/{key}")
        return found
    if isinstance(a, list) and isinstance(b, list):
        found = [d for i, (x, y) in enumerate(zip(a, b, strict=False)) for d in differences(x, y, f"{path}[{i}]")]
        return found if len(a) == len(b) else [*found, f"{path} (length {len(a)} vs {len(b)})"]
    return [] if a == b else [f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"]


def difference_kind(found: str) -> str:
    """A difference without the case's own names, to group alike ones across examples."""
    kind = re.sub(r"^/(tools/call|resources/read|prompts/get) [^/]*", r"/\1 *", found)
    kind = re.sub(r"\[\d+\]", "[]", kind)
    return re.sub(r"^(/\w+/list/\w+\[\])/.*?(/[^/]+)$", r"\1/…\2", kind)


def example_cases(tree: Path, ref: str) -> list[tuple[str, list[str] | None, str]]:
    """(case name, argv after the interpreter or None when skipped, skip reason)."""
    cases: list[tuple[str, list[str] | None, str]] = []
    for folder in EXAMPLE_DIRS[ref]:
        root = tree / folder
        if folder.endswith("examples/servers"):
            for package in sorted(p for p in root.iterdir() if p.is_dir()):
                modules = [m for m in package.iterdir() if (m / "__main__.py").exists()]
                text = "".join(f.read_text() for m in modules for f in m.rglob("*.py"))
                name = f"servers/{package.name}"
                if not modules:
                    cases.append((name, None, "no __main__"))
                elif "stdio_server" not in text and 'run("stdio")' not in text:
                    cases.append((name, None, "HTTP only"))
                else:
                    stdio = "--transport" in text and 'default="stdio"' not in text
                    flags = ["--transport", "stdio"] if stdio else []
                    argv = [str(tree / "launch_example.py"), "-m", modules[0].name, *flags]
                    cases.append((name, argv, package.as_posix()))
            continue
        for path in sorted(root.rglob("*.py")):
            if path.name == "__init__.py":
                continue
            text = path.read_text()
            name = path.relative_to(tree / "examples").as_posix()
            # A server only configured for HTTP in its `__main__` block is probed over stdio (the
            # launcher runs the server object); one that builds an ASGI app or checks tokens is not.
            if re.search(r"streamable_http_app\(|sse_app\(|Starlette\(|token_verifier=|auth=", text):
                cases.append((name, None, "HTTP app or auth"))
            else:
                cases.append((name, [str(tree / "launch_example.py"), str(path)], str(path.parent)))
    return cases


def probe_example(
    args: argparse.Namespace, python: str, tree: Path, argv: list[str], cwd: str, log: Path
) -> dict[str, object]:
    import os

    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "LANG", "TERM", "USER", "TMPDIR")}
    env["PYTHONPATH"] = cwd
    env["PYTHONUNBUFFERED"] = "1"
    spec = {
        "command": python,
        "args": argv,
        "env": env,
        "cwd": cwd,
        "errlog": str(log),
        "op_timeout": args.op_timeout,
    }
    try:
        done = subprocess.run(
            [args.python, str(tree.parent / "probe.py"), json.dumps(spec)],
            capture_output=True,
            text=True,
            timeout=args.timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return {"probe-failed": f"timed out after {args.timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    try:
        answer: dict[str, object] = json.loads(lines[-1])
    except (IndexError, ValueError):
        answer = {"probe-failed": (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:300]}
    if "probe-failed" in answer and log.exists():
        # The server's own last error says more than the client's closed stream.
        noise = ("File ", "^", "~", "During handling", "The above", "Traceback", "warnings.warn")
        server = [
            line.strip().lstrip("|+- ").strip() for line in log.read_text(errors="replace").splitlines() if line.strip()
        ]
        raised = [line for line in server if re.match(r"^[\w.]*(Error|Exception|Exit)\w*\b", line)]
        meaningful = raised or [line for line in server if not line.startswith(noise)]
        if meaningful:
            answer["probe-failed"] = f"{answer['probe-failed']} | server: {meaningful[-1][:200]}"
    return answer


def examples_suite(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    if args.ref not in EXAMPLE_DIRS:
        print(f"--suite examples knows --ref {' or '.join(EXAMPLE_DIRS)}", file=sys.stderr)
        return 2
    server_python = args.server_python or args.python
    with tempfile.TemporaryDirectory(prefix="port-check-examples-") as tmp:
        trees = {label: Path(tmp, label) for label in ("official", "ported")}
        trees["official"].mkdir()
        extract(args.sdk, args.ref, list(EXAMPLE_DIRS[args.ref]), trees["official"])
        shutil.copytree(trees["official"], trees["ported"])
        rewrite(trees["ported"])
        for tree in trees.values():
            (tree / "launch_example.py").write_text(EXAMPLE_LAUNCHER)
        Path(tmp, "probe.py").write_text(EXAMPLE_PROBE)
        if args.keep:
            shutil.copytree(trees["ported"], args.keep, dirs_exist_ok=True)
        cases = example_cases(trees["official"], args.ref)
        only = args.only.split(",") if args.only else None
        cases = [case for case in cases if not only or any(part in case[0] for part in only)]

        def one(index: int, case: tuple[str, list[str] | None, str]) -> tuple[str, str, str]:
            name, argv, where = case
            if argv is None:
                return name, "skipped", where
            seen = {}
            for label, tree in trees.items():
                relocate = [a.replace(str(trees["official"]), str(tree)) for a in argv]
                cwd = where.replace(str(trees["official"]), str(tree))
                seen[label] = probe_example(args, server_python, tree, relocate, cwd, Path(tmp, f"{label}-{index}.log"))
                if label == "official" and "probe-failed" in seen[label]:
                    return name, "not runnable", str(seen[label]["probe-failed"])
            if "probe-failed" in seen["ported"]:
                return name, "fails", str(seen["ported"]["probe-failed"])
            found = differences(normalise(seen["official"]), normalise(seen["ported"]))
            if found:
                return name, "differs", "\n" + "\n".join(found)
            return name, "identical", f"{len(seen['official'])} answers"

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda pair: one(*pair), enumerate(cases)))
    counts = collections.Counter(verdict for _, verdict, _ in results)
    kinds: collections.Counter[str] = collections.Counter()
    for name, verdict, detail in results:
        if verdict == "differs":
            found = detail.strip().splitlines()
            kinds.update({difference_kind(d) for d in found})
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            print(f"{verdict:12}  {name}: {found[0]}{more}")
            if args.list:
                print("\n".join(f"{'':14}  {d}" for d in found[1:]))
        else:
            print(f"{verdict:12}  {name}: {detail}")
    print("\nDifferences, by the number of examples showing them:")
    for kind, count in kinds.most_common(args.show):
        print(f"  {count:4}  {kind}")
    counted = counts["identical"] + counts["differs"] + counts["fails"]
    print(
        f"\n{args.ref}: {len(results)} examples; {counts['skipped']} skipped (HTTP or auth), "
        f"{counts['not runnable']} not runnable on the official SDK; of the {counted} that run: "
        f"{counts['identical']} identical, {counts['differs']} differ, {counts['fails']} fail on ferrymcp"
    )
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
        choices=("docs", "stories", "examples"),
        default="docs",
        help="the documentation tests (default), the example stories, or the example servers",
    )
    parser.add_argument(
        "--server-python",
        help="examples: the interpreter the example servers run on (default --python; for v1.x one with mcp<2)",
    )
    parser.add_argument("--jobs", type=int, default=3, help="examples: cases run at a time")
    parser.add_argument("--op-timeout", type=float, default=15.0, help="examples: seconds per request")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per story leg, or per example probe")
    args = parser.parse_args()
    if args.suite == "stories":
        return stories_suite(args)
    if args.suite == "examples":
        return examples_suite(args)
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
