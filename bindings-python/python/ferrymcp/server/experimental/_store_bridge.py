"""An application's `TaskStore` (the official 1.x interface) under the engine.

Core keeps the protocol of the 2025-11-25 tasks (what `tasks/get`, `tasks/result`,
`tasks/list` and `tasks/cancel` answer, waiting, cancellation, the status notifications)
and asks its store six things (core's `CallingTaskStore`: `createTask`, `getTask`,
`storeTaskResult`, `getTaskResult`, `updateTaskStatus`, `listTasks`, each with an array of
arguments). `StoreBridge.call` answers them from the application's store, converting the
official models to and from JSON, and scopes tasks to sessions as the official server does
for a store of the application's (`task_scope`): a task made for a session carries the
session's scope in its id; a requestor gets, waits on and cancels only its own tasks and
those of no scope, and lists only its own, in one page. The scope of a session is derived
from core's session key with a key of this process, so it is opaque and needs no table of
sessions. A stateless HTTP server has no sessions: its tasks are made without a scope
(reachable by id, never listed), as there; stdio is one session, with one scope.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from ferrymcp import types as _types
from ferrymcp.exceptions import McpError
from ferrymcp.server.experimental.task_scope import (
    scoped_task_id,
    task_in_session_scope,
    task_listable_in_session_scope,
)

__all__ = ["StoreBridge", "note_http_mode"]

_INVALID_PARAMS = -32602


def _dump(model: Any, *, exclude_none: bool) -> Any:
    if isinstance(model, dict):
        return model
    return model.model_dump(by_alias=True, mode="json", exclude_none=exclude_none)


class StoreBridge:
    """Core's task store operations on the application's `store` (see the module doc)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.stateless = False
        self._key = secrets.token_bytes(32)

    def _scope(self, session: str | None) -> str | None:
        if session is None and self.stateless:
            return None
        name = b"" if session is None else b"session:" + session.encode()
        return hashlib.blake2b(name, key=self._key, digest_size=16).hexdigest()

    async def call(self, operation: str, args: list[Any]) -> Any:
        return await self._operations[operation](self, *args)

    async def _create_task(self, params: dict[str, Any], _request_id: Any, _request: Any, session: str | None) -> Any:
        scope = self._scope(session)
        task_id = scoped_task_id(scope) if scope is not None else None
        task = await self.store.create_task(_types.TaskMetadata(ttl=params.get("ttl")), task_id)
        return _dump(task, exclude_none=False)

    async def _get_task(self, task_id: str, session: str | None) -> Any:
        # The one check of a task's scope: core gets a task before it waits on, cancels or
        # changes it, and answers `Task not found` when this says None.
        if not task_in_session_scope(task_id, self._scope(session)):
            return None
        task = await self.store.get_task(task_id)
        return None if task is None else _dump(task, exclude_none=False)

    async def _store_task_result(self, task_id: str, status: str, result: Any, _session: str | None) -> None:
        await self.store.store_result(task_id, _types.CallToolResult.model_validate(result))
        await self.store.update_task(task_id, status=status)

    async def _get_task_result(self, task_id: str, _session: str | None) -> Any:
        result = await self.store.get_result(task_id)
        if result is None:
            raise McpError(_INVALID_PARAMS, f"Task {task_id} has no result stored")
        return _dump(result, exclude_none=True)

    async def _update_task_status(self, task_id: str, status: str, message: str | None, _session: str | None) -> None:
        await self.store.update_task(task_id, status=status, status_message=message)

    async def _list_tasks(self, _cursor: str | None, session: str | None) -> Any:
        # One page of the requestor's own tasks: the store's cursors come from a listing of
        # every session's tasks, so neither goes to the client or comes from it.
        scope = self._scope(session)
        if scope is None:
            return {"tasks": []}
        own: list[Any] = []
        cursor: str | None = None
        while True:
            page, cursor = await self.store.list_tasks(cursor)
            tasks = [_dump(task, exclude_none=False) for task in page]
            own.extend(task for task in tasks if task_listable_in_session_scope(task["taskId"], scope))
            if cursor is None:
                return {"tasks": own}

    _operations: dict[str, Any] = {
        "createTask": _create_task,
        "getTask": _get_task,
        "storeTaskResult": _store_task_result,
        "getTaskResult": _get_task_result,
        "updateTaskStatus": _update_task_status,
        "listTasks": _list_tasks,
    }


def note_http_mode(server: Any, options: Any) -> None:
    """Tells the bridge of `server`'s store, if it has one, whether `server` is served
    over stateless HTTP (`options`: the endpoint's)."""
    bridge = getattr(server, "_task_bridge", None)
    if bridge is not None:
        bridge.stateless = bool(options.get("stateless"))
