"""`TaskMessageQueue` (`mcp.shared.experimental.tasks.message_queue`): the engine sends a
task's requests to the client on the session itself, so no queue is used.
`InMemoryTaskMessageQueue()` is accepted by `enable_tasks(queue=...)` as the default it
is; anything else is refused by name."""

from __future__ import annotations

from typing import Any

__all__ = ["InMemoryTaskMessageQueue", "TaskMessageQueue"]


class TaskMessageQueue:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if type(self) is TaskMessageQueue:
            raise NotImplementedError(
                "TaskMessageQueue is not supported by ferrymcp: a task's requests go to the client on the session"
            )


class InMemoryTaskMessageQueue(TaskMessageQueue):
    """The default queue, accepted as the engine's own delivery."""
