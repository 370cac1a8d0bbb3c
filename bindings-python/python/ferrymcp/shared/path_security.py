"""Checks for values that become file paths (`mcp.shared.path_security`).

A resource template's variables come from the client; a handler that joins one onto a
directory must refuse climbs out of it. `contains_path_traversal` and `is_absolute_path`
check a value alone (the default `ResourceSecurity` uses them); `safe_join` resolves the
joined path, symlinks included, and refuses anything outside the base.
"""

from __future__ import annotations

from pathlib import Path

from ferrymcp.server._resource_security import contains_path_traversal, is_absolute_path


class PathEscapeError(ValueError):
    """`safe_join` refused a path that leaves its base."""


def safe_join(base: str | Path, *parts: str) -> Path:
    """`base` joined with `parts`, resolved; raises `PathEscapeError` when a part holds
    a NUL byte or is absolute, or when the resolved path is not inside the resolved base
    (checked when called: a later symlink swap is not seen)."""
    root = Path(base).resolve()
    for part in parts:
        if "\0" in part:
            raise PathEscapeError(f"Path component contains a null byte; refusing to join onto {root}")
        if is_absolute_path(part):
            raise PathEscapeError(f"Path component {part!r} is absolute; refusing to join onto {root}")
    target = root.joinpath(*parts).resolve()
    if not target.is_relative_to(root):
        raise PathEscapeError(f"Path {target} escapes base {root}")
    return target


__all__ = ["PathEscapeError", "contains_path_traversal", "is_absolute_path", "safe_join"]
