"""`server.experimental` of the low-level `Server` (`mcp.server.lowlevel.experimental`):
the 2025-11-25 tasks.

`enable_tasks()` has the engine serve them: core declares `tasks` (`list`, `cancel`,
task-augmented `tools/call`) to the sessions of that revision (`Server::enable_spec_tasks`)
and answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from its task
store (or the application's `TaskStore`, `enable_tasks(store=...)`), scoped to the session
that created each task; `ctx.experimental.run_task(work)`
creates the tasks there. The `@server.experimental.get_task()` (... `list_tasks`,
`get_task_result`, `cancel_task`) decorators replace the engine's answer to that method
with the application's, as there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ferrymcp import types as _types
from ferrymcp.server.experimental.task_support import TaskSupport

if TYPE_CHECKING:
    from ferrymcp.server.lowlevel.server import Server

__all__ = ["ExperimentalHandlers"]


class ExperimentalHandlers:
    """`server.experimental` (see the module doc)."""

    def __init__(self, server: Server[Any]) -> None:
        self._server = server
        self._task_support: TaskSupport | None = None

    @property
    def task_support(self) -> TaskSupport | None:
        return self._task_support

    def enable_tasks(self, store: Any = None, queue: Any = None) -> TaskSupport:
        """Has the engine serve the 2025-11-25 tasks (see the module doc), kept in the
        engine's own store (`store=None` or `InMemoryTaskStore()`) or in the application's
        `TaskStore` (scoped to sessions by task id, as the official server scopes one: see
        `ferrymcp.server.experimental._store_bridge`). A `queue=` is refused."""
        from ferrymcp.shared.experimental.tasks.in_memory_task_store import InMemoryTaskStore
        from ferrymcp.shared.experimental.tasks.message_queue import InMemoryTaskMessageQueue
        from ferrymcp.shared.experimental.tasks.store import TaskStore

        if isinstance(store, InMemoryTaskStore) and type(store) is not InMemoryTaskStore:
            # Its methods would never run: the engine keeps the tasks of an InMemoryTaskStore.
            raise NotImplementedError(
                f"enable_tasks(store=...) with {type(store).__name__}, a subclass of InMemoryTaskStore, is not"
                " supported by ferrymcp: the engine's in-memory store cannot be extended from Python (pass"
                " InMemoryTaskStore() itself, or a TaskStore subclass that keeps the tasks)"
            )
        if store is not None and not isinstance(store, (InMemoryTaskStore, TaskStore)):
            raise TypeError(
                f"enable_tasks(store=...) takes a TaskStore (mcp.shared.experimental.tasks.store), not"
                f" {type(store).__name__}"
            )
        if queue is not None and not isinstance(queue, InMemoryTaskMessageQueue):
            raise NotImplementedError(
                "enable_tasks(queue=...) is not supported by ferrymcp: the engine sends a task's requests to the"
                " client on the session itself, without a message queue"
            )
        self._task_support = TaskSupport(store=store or InMemoryTaskStore(), queue=queue)
        if isinstance(store, TaskStore):
            from ferrymcp.server.experimental._store_bridge import StoreBridge

            self._server._set_task_bridge(StoreBridge(store))
        self._server._enable_spec_tasks()
        return self._task_support

    def update_capabilities(self, capabilities: Any) -> None:
        raise NotImplementedError(
            "server.experimental.update_capabilities() is not supported by ferrymcp: the engine declares tasks"
            " to 2025-11-25 sessions once enable_tasks() is called"
        )

    def _decorator(self, method: str, params_type: Any, request_type: Any) -> Callable[[Any], Any]:
        def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
            async def handle(ctx: Any, params: Any) -> Any:
                request = request_type.model_validate(
                    {"method": method, "params": params.model_dump(by_alias=True, exclude_none=True)}
                )
                return await func(request)

            self._server.add_request_handler(method, params_type, handle)
            return func

        return decorator

    def list_tasks(self) -> Callable[[Any], Any]:
        return self._decorator("tasks/list", _types.PaginatedRequestParams, _types.ListTasksRequest)

    def get_task(self) -> Callable[[Any], Any]:
        return self._decorator("tasks/get", _types.GetTaskRequestParams, _types.GetTaskRequest)

    def get_task_result(self) -> Callable[[Any], Any]:
        return self._decorator("tasks/result", _types.GetTaskPayloadRequestParams, _types.GetTaskPayloadRequest)

    def cancel_task(self) -> Callable[[Any], Any]:
        return self._decorator("tasks/cancel", _types.CancelTaskRequestParams, _types.CancelTaskRequest)
