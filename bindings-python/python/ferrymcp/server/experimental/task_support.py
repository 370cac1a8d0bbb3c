"""`TaskSupport` (`mcp.server.experimental.task_support`): what
`server.experimental.enable_tasks()` returns. The store is the engine's (core's
2025-11-25 task store); the official message queue and result handler have no
counterpart (the engine sends a task's requests on the session itself)."""

from __future__ import annotations

from typing import Any

__all__ = ["TaskSupport"]


class TaskSupport:
    """Task support of a server whose engine keeps the tasks (see the module doc)."""

    def __init__(self, store: Any = None, queue: Any = None) -> None:
        self.store = store
        self.queue = queue

    @classmethod
    def in_memory(cls) -> TaskSupport:
        from ferrymcp.shared.experimental.tasks.in_memory_task_store import InMemoryTaskStore

        return cls(store=InMemoryTaskStore())

    @property
    def handler(self) -> Any:
        raise NotImplementedError(
            "TaskSupport.handler (TaskResultHandler) is not supported by ferrymcp: the engine answers tasks/result"
        )

    @property
    def task_group(self) -> Any:
        raise NotImplementedError(
            "TaskSupport.task_group is not supported by ferrymcp: run_task runs the work on the serving event loop"
        )

    def run(self) -> Any:
        raise NotImplementedError("TaskSupport.run() is not supported by ferrymcp: the engine runs the tasks")

    def configure_session(self, session: Any) -> None:
        raise NotImplementedError("TaskSupport.configure_session() is not supported by ferrymcp")
