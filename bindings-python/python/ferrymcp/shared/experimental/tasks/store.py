"""`TaskStore` (`mcp.shared.experimental.tasks.store`): the official interface of a task
store. `server.experimental.enable_tasks(store=MyStore())` keeps the 2025-11-25 tasks in
a subclass of the application's: the engine (core) keeps the protocol and asks the store
to create, get, update and list tasks and to keep their results
(`ferrymcp.server.experimental._store_bridge`); without `store=` the engine keeps them
itself."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from ferrymcp.types import Result, Task, TaskMetadata

__all__ = ["TaskStore"]


class TaskStore(ABC):
    """The official interface (see the module doc)."""

    @abstractmethod
    async def create_task(self, metadata: TaskMetadata, task_id: str | None = None) -> Task: ...

    @abstractmethod
    async def get_task(self, task_id: str) -> Task | None: ...

    @abstractmethod
    async def update_task(self, task_id: str, status: Any = None, status_message: str | None = None) -> Task: ...

    @abstractmethod
    async def store_result(self, task_id: str, result: Result) -> None: ...

    @abstractmethod
    async def get_result(self, task_id: str) -> Result | None: ...

    @abstractmethod
    async def list_tasks(self, cursor: str | None = None) -> tuple[list[Task], str | None]: ...

    @abstractmethod
    async def delete_task(self, task_id: str) -> bool: ...

    @abstractmethod
    async def wait_for_update(self, task_id: str) -> None: ...

    @abstractmethod
    async def notify_update(self, task_id: str) -> None: ...
