"""`TaskResultHandler` (`mcp.server.experimental.task_result_handler`): refused. The
engine answers `tasks/result` itself (core's 2025-11-25 tasks), and a task's requests to
the client go on the session, not through a message queue."""

from __future__ import annotations

from typing import Any

__all__ = ["TaskResultHandler"]


class TaskResultHandler:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "TaskResultHandler is not supported by ferrymcp: the engine answers tasks/result itself"
            " (server.experimental.enable_tasks())"
        )
