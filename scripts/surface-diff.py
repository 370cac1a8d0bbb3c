"""Lists what of the official Python SDK's public surface `ferrymcp` lacks.

ferrymcp promises that code written for the official SDK (`mcp`, and its types package
`mcp_types`) runs when only its imports name `ferrymcp`. This script compares the two
surfaces name by name:

- the installed official package (the `mcp` pinned in tests/interop/requirements.txt, and
  `mcp_types`): every public module is imported, and every public name it offers (its
  `__all__`, else the public names defined in the SDK) is looked up on the matching
  `ferrymcp` module;
- branches of the official repository (a git directory, by default the `main` and `v1.x`
  branches of the local mirror): every public module by path, and the public names its
  source defines or re-exports, read with `ast` (nothing of it is imported or copied).

A module is public when no part of its dotted path starts with `_`. The official module
`mcp.X` matches `ferrymcp.X`; `mcp_types` and `mcp.types` match `ferrymcp.types` (its
submodules `jsonrpc`, `methods`, `version` likewise), as scripts/port-check.py rewrites
imports. A name ferrymcp refuses on purpose (reading it raises an error that explains why,
rather than Python's bare "has no attribute") is counted apart from the missing ones.

    python scripts/surface-diff.py                       # installed package + mirror branches
    python scripts/surface-diff.py --no-git              # installed package only
    python scripts/surface-diff.py --git DIR --ref main  # other repository or branch
    python scripts/surface-diff.py --summary             # counts only
    python scripts/surface-diff.py --material            # + what the examples and docs import

Run it with the interpreter whose site-packages hold both packages (`.venv/bin/python`).
Exit code 0 always: a developer measure, not a gate.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import io
import pkgutil
import re
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

DEFAULT_GIT = "/work/.mirror/modelcontextprotocol+python-sdk/repo"
DEFAULT_REFS = ["main", "v1.x"]
# Where the official packages' sources sit in the repository, by top-level package.
SOURCE_ROOTS = {"src/mcp/": "mcp", "src/mcp-types/mcp_types/": "mcp_types"}
OFFICIAL_ROOTS = ("mcp", "mcp_types")
BARE_MISSING = "has no attribute"


def ferry_module_name(official: str) -> str:
    """The ferrymcp module that stands for the official module `official`."""
    parts = official.split(".")
    if parts[0] == "mcp_types":
        return ".".join(["ferrymcp", "types", *parts[1:]])
    return ".".join(["ferrymcp", *parts[1:]])


def is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


@dataclass
class ModuleDiff:
    official: str
    ferry: str
    ferry_error: str | None = None  # the ferrymcp module does not import
    missing: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    checked: int = 0


@dataclass
class Surface:
    label: str
    modules: list[ModuleDiff] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # official modules that did not load

    def counts(self) -> dict[str, int]:
        present = [m for m in self.modules if m.ferry_error is None]
        return {
            "modules": len(self.modules),
            "modules missing": len(self.modules) - len(present),
            "names": sum(m.checked for m in self.modules),
            "names missing": sum(len(m.missing) for m in self.modules),
            "names refused": sum(len(m.refused) for m in self.modules),
            "names in missing modules": sum(m.checked for m in self.modules if m.ferry_error is not None),
        }


def import_ferry(name: str) -> tuple[ModuleType | None, str | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name), None
    except BaseException as error:  # noqa: BLE001 - any failure to import is the finding
        return None, f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


def compare(official: str, names: list[str]) -> ModuleDiff:
    diff = ModuleDiff(official, ferry_module_name(official), checked=len(names))
    module, error = import_ferry(diff.ferry)
    if module is None:
        diff.ferry_error = error
        return diff
    for name in names:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(module, name)
        except AttributeError as exc:
            message = str(exc)
            if BARE_MISSING in message and len(message) < 120:
                # Also a submodule that was never imported.
                submodule, _ = import_ferry(f"{diff.ferry}.{name}")
                if submodule is None:
                    diff.missing.append(name)
            else:
                diff.refused[name] = message.splitlines()[0]
        except Exception as exc:  # noqa: BLE001 - a name that raises on purpose is a refusal
            diff.refused[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return diff


# --- the installed official package -------------------------------------------------------


def defined_in_sdk(value: object) -> bool:
    """Whether a module attribute is the SDK's own (not a stdlib or third-party import)."""
    if isinstance(value, ModuleType):
        return False
    origin = getattr(value, "__module__", None)
    if not isinstance(origin, str):
        return True  # a constant or an instance: defined where it is assigned
    if origin in ("typing", "typing_extensions", "builtins"):
        # A TypeVar or alias assigned in the SDK reports typing unless it was given a name.
        return not hasattr(value, "__origin__") and not callable(value)
    return origin.split(".")[0] in OFFICIAL_ROOTS


def installed_names(module: ModuleType) -> list[str]:
    """The module's `__all__`, else what its source defines or re-exports (`X as X`), read
    as for a branch: the names it merely imports for its own use are not its surface."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return sorted(set(declared))
    file = getattr(module, "__file__", None)
    if file is None or not file.endswith(".py"):
        return sorted(
            name for name, value in vars(module).items() if not name.startswith("_") and defined_in_sdk(value)
        )
    name = module.__name__ + (".__init__" if file.endswith("__init__.py") else "")
    return source_names(Path(file).read_text(encoding="utf-8"), name)


def submodules(path: list[str], prefix: str) -> list[str]:
    """Every module under a package path, found on disk (`pkgutil.walk_packages` imports
    each package to descend, and one of the SDK's exits the process when its extra is
    absent)."""
    found: list[str] = []
    for info in pkgutil.iter_modules(path, prefix):
        found.append(info.name)
        if info.ispkg:
            found += submodules([str(Path(p) / info.name.rsplit(".", 1)[1]) for p in path], f"{info.name}.")
    return found


def installed_surface() -> Surface:
    surface = Surface("installed")
    for root in OFFICIAL_ROOTS:
        try:
            package = importlib.import_module(root)
        except ImportError as error:
            surface.skipped[root] = str(error)
            continue
        version = getattr(package, "__version__", None)
        if version is None:
            from importlib.metadata import version as dist_version

            version = dist_version(root.replace("_", "-"))
        surface.label = f"installed official packages ({root} {version}, ...)"
        names = [root, *submodules(package.__path__, f"{root}.")]
        for name in names:
            if not is_public(name):
                continue
            try:
                # One of the SDK's modules prints to stdout and exits when its extra is absent.
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")
                    module = importlib.import_module(name)
            except BaseException as error:  # noqa: BLE001 - e.g. an optional dependency absent
                surface.skipped[name] = f"{type(error).__name__}: {error}"
                continue
            surface.modules.append(compare(name, installed_names(module)))
    import mcp

    surface.label = f"installed official package mcp {getattr(mcp, '__version__', '?')}"
    try:
        from importlib.metadata import version as dist_version

        surface.label = f"installed official packages mcp {dist_version('mcp')}, mcp-types {dist_version('mcp-types')}"
    except Exception:  # noqa: BLE001 - the label only
        pass
    return surface


# --- a branch of the official repository, read with ast ------------------------------------


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def source_names(source: str, module: str) -> list[str]:
    """The public names a module's source offers: its literal `__all__`, else what it defines
    at top level and what it re-exports from the SDK itself."""
    tree = ast.parse(source)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    if isinstance(node.value, ast.List | ast.Tuple):
                        return sorted(
                            {
                                e.value
                                for e in node.value.elts
                                if isinstance(e, ast.Constant) and isinstance(e.value, str)
                            }
                        )
    package = module if module.count(".") == 0 else module.rsplit(".", 1)[0]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif type(node).__name__ == "TypeAlias":  # `type X = ...` (Python 3.12+)
            names.add(node.name.id)  # type: ignore[attr-defined]
        elif isinstance(node, ast.ImportFrom):
            origin = node.module or ""
            if node.level:  # relative: from the SDK by definition
                origin = package
            if origin.split(".")[0] not in OFFICIAL_ROOTS:
                continue
            for alias in node.names:
                # `import X as X` is the explicit re-export idiom; a plain import in an
                # `__init__` re-exports too.
                if alias.asname == alias.name or (alias.asname is None and module.endswith("__init__")):
                    names.add(alias.name)
    return sorted(name for name in names if not name.startswith("_") and name != "*")


def branch_surface(git_dir: str, ref: str) -> Surface:
    surface = Surface(f"{ref} of {git_dir}")
    for path in git(git_dir, "ls-tree", "-r", "--name-only", ref).splitlines():
        root = next((r for r in SOURCE_ROOTS if path.startswith(r)), None)
        if root is None or not path.endswith(".py"):
            continue
        relative = path[len(root) : -len(".py")].split("/")
        parts = [SOURCE_ROOTS[root], *relative]
        is_init = parts[-1] == "__init__"
        if is_init:
            parts = parts[:-1]
        module = ".".join(parts)
        if not is_public(module):
            continue
        try:
            names = source_names(git(git_dir, "show", f"{ref}:{path}"), module + (".__init__" if is_init else ""))
        except SyntaxError as error:
            surface.skipped[module] = f"SyntaxError: {error}"
            continue
        surface.modules.append(compare(module, names))
    return surface


# --- what the official material imports -----------------------------------------------------

MATERIAL_DIRS = ("examples/", "docs_src/", "tests/docs_src/", "README.md", "docs/")
IMPORT_LINE = re.compile(r"^\s*from\s+(mcp_types|mcp)((?:\.\w+)*)\s+import\s+(\(?)([^#\n]*)", re.MULTILINE)


def material_imports(git_dir: str, ref: str) -> dict[tuple[str, str], set[str]]:
    """`(module, name) -> files` for every `from mcp... import name` in the branch's
    examples, documentation sources and documentation tests (markdown code blocks too)."""
    found: dict[tuple[str, str], set[str]] = {}
    for path in git(git_dir, "ls-tree", "-r", "--name-only", ref).splitlines():
        if not path.startswith(MATERIAL_DIRS) or not path.endswith((".py", ".md")):
            continue
        text = git(git_dir, "show", f"{ref}:{path}")
        for match in IMPORT_LINE.finditer(text):
            module = match.group(1) + match.group(2)
            names = match.group(4)
            if match.group(3):  # parenthesised: read to the closing parenthesis
                names = text[match.start(4) : text.index(")", match.start(4))]
            for item in names.replace("\n", ",").split(","):
                item = item.split("#")[0].strip().strip("()").strip()
                if not item or item == "*":
                    continue
                name = item.split(" as ")[0].strip()
                if name.isidentifier():
                    found.setdefault((module, name), set()).add(path)
    return found


def material_report(git_dir: str, ref: str) -> None:
    imports = material_imports(git_dir, ref)
    by_module: dict[str, list[str]] = {}
    for module, name in imports:
        by_module.setdefault(module, []).append(name)
    gaps: list[str] = []
    for module, names in sorted(by_module.items()):
        diff = compare(module, sorted(names))
        if diff.ferry_error is not None:
            gaps.append(f"  MODULE {module} -> {diff.ferry}: {diff.ferry_error} (imports {', '.join(sorted(names))})")
            continue
        for name in [*diff.missing, *diff.refused]:
            files = sorted(imports[(module, name)])
            why = f" (refused: {diff.refused[name][:100]})" if name in diff.refused else ""
            gaps.append(f"  {module}.{name} in {len(files)} file(s), e.g. {files[0]}{why}")
    print(f"== names the official material imports ({ref}: {', '.join(MATERIAL_DIRS)})")
    for line in gaps:
        print(line)
    print(f"  totals: {len(imports)} imported (module, name) pairs, {len(gaps)} without a ferrymcp counterpart")


# --- output --------------------------------------------------------------------------------


def report(surface: Surface, summary: bool, show_refused: bool) -> None:
    print(f"== {surface.label}")
    if not summary:
        for diff in sorted(surface.modules, key=lambda d: d.official):
            if diff.ferry_error is not None:
                print(f"  MODULE {diff.official} -> {diff.ferry}: {diff.ferry_error} ({diff.checked} names)")
            elif diff.missing:
                print(f"  {diff.official} -> {diff.ferry}: {len(diff.missing)} of {diff.checked} missing")
                print("      " + ", ".join(diff.missing))
            if show_refused and diff.refused:
                for name, why in sorted(diff.refused.items()):
                    print(f"      refused {diff.ferry}.{name}: {why[:150]}")
        for name, why in sorted(surface.skipped.items()):
            print(f"  (official {name} not loaded: {why.splitlines()[0][:120]})")
    counts = surface.counts()
    absent = counts["names missing"] + counts["names in missing modules"]
    print(
        f"  totals: {counts['modules']} public modules, {counts['modules missing']} without a ferrymcp module;"
        f" {counts['names']} public names, {absent} without a counterpart ({counts['names missing']} in present"
        f" modules, {counts['names in missing modules']} in missing ones), {counts['names refused']} refused by name"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git", default=DEFAULT_GIT, help="a git directory of modelcontextprotocol/python-sdk")
    parser.add_argument("--ref", action="append", help="branches to read (default: main and v1.x)")
    parser.add_argument("--no-git", action="store_true", help="only the installed official package")
    parser.add_argument("--no-installed", action="store_true", help="only the repository branches")
    parser.add_argument("--summary", action="store_true", help="print the totals only")
    parser.add_argument(
        "--material", action="store_true", help="also check what the branches' examples and docs import"
    )
    parser.add_argument("--refused", action="store_true", help="also list the names ferrymcp refuses, with why")
    args = parser.parse_args()

    import ferrymcp  # noqa: F401 - fail early, with the plain error, when it is not installed

    surfaces: list[Surface] = []
    if not args.no_installed:
        surfaces.append(installed_surface())
    if not args.no_git:
        if Path(args.git).exists():
            for ref in args.ref or DEFAULT_REFS:
                surfaces.append(branch_surface(args.git, ref))
        else:
            print(f"(no git directory at {args.git}; pass --git or --no-git)", file=sys.stderr)
    for surface in surfaces:
        report(surface, args.summary, args.refused)
    if args.material and not args.no_git and Path(args.git).exists():
        for ref in args.ref or DEFAULT_REFS:
            material_report(args.git, ref)


if __name__ == "__main__":
    main()
