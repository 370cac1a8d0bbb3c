"""`InMemoryTaskStore` (`mcp.shared.experimental.tasks.in_memory_task_store`): names the
engine's own in-memory store (core's `InMemoryTaskStore`, which keeps the official
store's rules) for `server.experimental.enable_tasks(store=InMemoryTaskStore())`. Its
operations are the engine's: called from Python they raise, naming the method."""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["InMemoryTaskStore"]


def _refused(name: str) -> NoReturn:
    raise NotImplementedError(
        f"InMemoryTaskStore.{name}() is not supported by ferrymcp: the engine keeps the tasks (serve them with"
        " server.experimental.enable_tasks(); a client reads them with session.experimental)"
    )


class InMemoryTaskStore:
    """The engine's store (see the module doc)."""

    def __init__(self, page_size: int = 10) -> None:
        if page_size != 10:
            raise NotImplementedError("InMemoryTaskStore(page_size=...) is not supported by ferrymcp: core pages by 10")

    async def create_task(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("create_task")

    async def get_task(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("get_task")

    async def update_task(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("update_task")

    async def store_result(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("store_result")

    async def get_result(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("get_result")

    async def list_tasks(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("list_tasks")

    async def delete_task(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("delete_task")

    async def wait_for_update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("wait_for_update")

    async def notify_update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refused("notify_update")

    def cleanup(self) -> NoReturn:
        _refused("cleanup")
