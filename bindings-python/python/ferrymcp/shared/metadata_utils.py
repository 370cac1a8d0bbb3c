"""`get_display_name` (`mcp.shared.metadata_utils`): the name a user interface shows."""

from __future__ import annotations

from typing import Any

from ferrymcp.types import Tool


def get_display_name(obj: Any) -> str:
    """`title`, else (for a tool) `annotations.title`, else `name`."""
    title = getattr(obj, "title", None)
    if title is not None:
        return str(title)
    if isinstance(obj, Tool):
        annotations = getattr(obj, "annotations", None)
        if annotations is not None and getattr(annotations, "title", None) is not None:
            return str(annotations.title)
    return str(obj.name)


__all__ = ["get_display_name"]
