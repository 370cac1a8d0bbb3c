"""`is_terminal` (`mcp.shared.experimental.tasks.helpers`): whether a task status is
final, core's rule (`is_terminal_task_status`)."""

from __future__ import annotations

from ferrymcp._native import is_terminal_task_status

__all__ = ["is_terminal"]


def is_terminal(status: str) -> bool:
    return is_terminal_task_status(status)
