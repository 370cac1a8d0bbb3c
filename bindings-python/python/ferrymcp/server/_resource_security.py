"""`ResourceSecurity`: the official SDK's default checks on URI template variables.

The official SDK refuses, by default, template variables that climb out of a directory
(`..` components), look like absolute paths (`/etc`, `C:\\`) or hold NUL bytes, and
answers such a read as an unknown resource. ferrymcp does the same, per template, with
the same options (`exempt_params` to allow a variable that legitimately holds `..`).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResourceSecurity:
    reject_path_traversal: bool = True
    reject_absolute_paths: bool = True
    reject_null_bytes: bool = True
    exempt_params: frozenset[str] = field(default_factory=frozenset)

    def failing_param(self, params: Mapping[str, Any]) -> str | None:
        """The first variable that breaks the policy, or `None`."""
        for name, value in params.items():
            if name in self.exempt_params:
                continue
            for item in value if isinstance(value, list) else [value]:
                text = str(item)
                if (
                    (self.reject_null_bytes and "\0" in text)
                    or (self.reject_path_traversal and contains_path_traversal(text))
                    or (self.reject_absolute_paths and is_absolute_path(text))
                ):
                    return name
        return None


DEFAULT_RESOURCE_SECURITY = ResourceSecurity()


def contains_path_traversal(value: str) -> bool:
    """Whether `..` components would move above the starting directory."""
    depth = 0
    for part in value.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part and part != ".":
            depth += 1
    return False


def is_absolute_path(value: str) -> bool:
    """Whether `value` is an absolute path on any common platform."""
    if not value:
        return False
    if value[0] in ("/", "\\"):
        return True
    return len(value) >= 2 and value[1] == ":" and value[0] in string.ascii_letters
