"""Tasks from the client side (`session.experimental`, the official 1.x
`mcp.client.experimental.tasks`): call a tool as a task, then get, poll, answer, cancel
and list it, and get its result.

The engine speaks both task protocols: the 2026-07-28 tasks extension
(`io.modelcontextprotocol/tasks`; a `Client` in mode "auto" or "2026-07-28") and the
experimental tasks of 2025-11-25 (`ClientSession`, mode "legacy"). Tasks come back in the
official `Task` shape either way; what the engine decides (how long to wait between polls,
from the task's `pollInterval`; which states end a task; a failed task's error) is not
decided here.

- `call_tool_as_task(name, arguments, ttl=..., meta=...)` -> `CreateTaskResult`. `ttl` is
  asked for on 2025-11-25 only (a 2026-07-28 server decides it). A tool the server runs at
  once (one that never runs as a task) raises `TaskNotCreatedError` carrying its result.
- `get_task`, `poll_task` (an async iterator ending at a terminal state), `cancel_task`.
- `get_task_result(task_id, result_type)`: on 2025-11-25 `tasks/result`; on 2026-07-28 the
  task is polled and its input requests are answered through the session's callbacks
  (elicitation, sampling, roots), as the official client answers them on 2025-11-25.
- `update_task(task_id, input_responses)` (ferrymcp; 2026-07-28's `tasks/update`).
- `list_tasks(cursor)`: 2025-11-25 only (the 2026-07-28 extension has no list).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, TypeVar

from ferrymcp.exceptions import McpError
from ferrymcp.types import (
    CallToolResult,
    CancelTaskResult,
    CreateTaskResult,
    GetTaskResult,
    ListTasksResult,
)

if TYPE_CHECKING:
    from ferrymcp.client import Client

_R = TypeVar("_R")


class TaskNotCreatedError(McpError):
    """The server answered `call_tool_as_task` at once instead of creating a task; the
    answer is `.result` (a `CallToolResult`)."""

    def __init__(self, name: str, result: CallToolResult) -> None:
        message = f"the server ran tool {name!r} at once instead of as a task (it does not support tasks)"
        super().__init__(-32600, message)
        self.result = result


class ExperimentalClientFeatures:
    """`session.experimental` (see the module doc)."""

    def __init__(self, session: Client) -> None:
        self._session = session

    async def call_tool_as_task(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        ttl: int = 60000,
        meta: dict[str, Any] | None = None,
    ) -> CreateTaskResult:
        answer = await self._session._client.call_tool_as_task(name, arguments or {}, ttl, meta)
        if "task" not in answer:
            raise TaskNotCreatedError(name, CallToolResult.model_validate(answer["result"]))
        return CreateTaskResult.model_validate(answer)

    async def get_task(self, task_id: str) -> GetTaskResult:
        return GetTaskResult.model_validate(await self._session._client.get_task(task_id))

    async def poll_task(self, task_id: str) -> AsyncIterator[GetTaskResult]:
        """The task's states until a terminal one (included), polled at its interval."""
        native = self._session._client
        previous: dict[str, Any] | None = None
        while (task := await native.poll_task_step(task_id, previous)) is not None:
            yield GetTaskResult.model_validate(task)
            previous = task

    async def get_task_result(self, task_id: str, result_type: type[_R] = CallToolResult) -> _R:  # type: ignore[assignment]
        result = await self._session._client.task_result(task_id)
        validate = getattr(result_type, "model_validate", None)
        validated: _R = validate(result) if callable(validate) else result_type(**result)
        return validated

    async def update_task(self, task_id: str, input_responses: dict[str, Any]) -> None:
        """Answers the task's input requests (2026-07-28 `tasks/update`), by input key."""
        responses = {key: _dump(value) for key, value in input_responses.items()}
        await self._session._client.update_task(task_id, responses)

    async def list_tasks(self, cursor: str | None = None) -> ListTasksResult:
        return ListTasksResult.model_validate(await self._session._client.list_tasks(cursor))

    async def cancel_task(self, task_id: str) -> CancelTaskResult:
        return CancelTaskResult.model_validate(await self._session._client.cancel_task(task_id))


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else value


__all__ = ["ExperimentalClientFeatures", "TaskNotCreatedError"]
