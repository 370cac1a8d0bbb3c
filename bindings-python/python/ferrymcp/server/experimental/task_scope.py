"""Session scopes of task ids (`mcp.server.experimental.task_scope`, 1.x).

A task created for a session carries that session's scope in its id,
`"<32 hex digits>:<uuid4>"`, so a store of the application's, which knows nothing of
sessions, still serves each session only its own tasks: `tasks/get`, `tasks/result` and
`tasks/cancel` accept an id of the requestor's scope or of none (an id without a scope
was made elsewhere, and holding it is what grants access), and `tasks/list` shows only
the requestor's own. The engine's in-memory store scopes tasks by session itself; these
functions are used for an application's `TaskStore`.
"""

from __future__ import annotations

import re
import uuid

__all__ = [
    "new_session_scope",
    "scoped_task_id",
    "session_scope_of",
    "task_in_session_scope",
    "task_listable_in_session_scope",
]

_HEX = "[0-9a-f]"
_SCOPED = re.compile(rf"({_HEX}{{32}}):{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}")


def new_session_scope() -> str:
    """A new opaque scope (32 hex digits)."""
    return uuid.uuid4().hex


def scoped_task_id(session_scope: str) -> str:
    """A new task id in `session_scope`."""
    return f"{session_scope}:{uuid.uuid4()}"


def session_scope_of(task_id: str) -> str | None:
    """The scope a task id carries, or None when it has none."""
    found = _SCOPED.fullmatch(task_id)
    return found.group(1) if found else None


def task_in_session_scope(task_id: str, session_scope: str | None) -> bool:
    """Whether a requestor of `session_scope` may get, wait on or cancel the task."""
    scope = session_scope_of(task_id)
    return scope is None or scope == session_scope


def task_listable_in_session_scope(task_id: str, session_scope: str | None) -> bool:
    """Whether `tasks/list` shows the task to a requestor of `session_scope`: only its own."""
    scope = session_scope_of(task_id)
    return scope is not None and scope == session_scope
