"""`ServerTaskContext` (`mcp.server.experimental.task_context`): what a task's work gets
from `ctx.experimental.run_task(work)`.

The task lives in the engine (core's 2025-11-25 task store, `SpecTask`): the status and
its notification, the end (`completed` / `failed`), the cancellation and the task as
stored are core's. The work's elicitation and sampling go to the client on the session
with the related-task `_meta`, the task `input_required` meanwhile (core's rule), rather
than through the official SDK's message queue and `tasks/result` side channel: the
official client answers them either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrymcp._session import ServerSession
from ferrymcp.types import CreateMessageResult, CreateTaskResult, ElicitResult, Task

if TYPE_CHECKING:
    from ferrymcp._native import NativeSpecTask
    from ferrymcp.server.mcpserver.server import MCPServer

__all__ = ["ServerTaskContext"]


class ServerTaskContext:
    """The running task (see the module doc)."""

    def __init__(self, native: NativeSpecTask, task: Task, server: MCPServer[Any] | None = None) -> None:
        self._native = native
        self._task = task
        self._session = ServerSession(native.context, server)
        self._ended = False

    @property
    def task_id(self) -> str:
        return self._native.task_id

    @property
    def task(self) -> Task:
        """The task as last seen here (after its creation or this context's last change)."""
        return self._task

    @property
    def is_cancelled(self) -> bool:
        """Whether the client cancelled the task (`tasks/cancel`)."""
        return self._native.is_cancelled()

    @property
    def session(self) -> ServerSession:
        return self._session

    def request_cancellation(self) -> None:
        raise NotImplementedError(
            "ServerTaskContext.request_cancellation() is not supported by ferrymcp: a task is cancelled by the"
            " client's tasks/cancel (core's task store); end it from the work with fail()"
        )

    async def _refresh(self) -> None:
        self._task = Task.model_validate(await self._native.get())

    async def update_status(self, message: str, *, notify: bool = True) -> None:
        """Keeps the task `working` with `message` as its status message
        (`notifications/tasks/status` to the client when `notify`)."""
        await self._native.update_status(message, notify)
        await self._refresh()

    async def complete(self, result: Any, *, notify: bool = True) -> None:
        """Ends the task `completed` with `result` (the engine always announces the end)."""
        from ferrymcp.server._tools import wire

        self._ended = True
        await self._native.complete(wire(result))
        await self._refresh()

    async def fail(self, error: str, *, notify: bool = True) -> None:
        """Ends the task `failed` with `error` (kept as a failed tool result, core's rule)."""
        self._ended = True
        await self._native.fail(error)
        await self._refresh()

    async def elicit(self, message: str, requestedSchema: dict[str, Any]) -> ElicitResult:  # noqa: N803 - official name
        return await self._session.elicit_form(message, requestedSchema)

    async def elicit_url(self, message: str, url: str, elicitation_id: str) -> ElicitResult:
        return await self._session.elicit_url(message, url, elicitation_id)

    async def create_message(self, messages: list[Any], *, max_tokens: int, **options: Any) -> CreateMessageResult:
        result = await self._session._create_message(messages, max_tokens=max_tokens, **options)
        return CreateMessageResult.model_validate(result.model_dump(by_alias=True, exclude_none=True))

    async def elicit_as_task(self, *args: Any, **kwargs: Any) -> CreateTaskResult:
        raise NotImplementedError(
            "ServerTaskContext.elicit_as_task() is not supported by ferrymcp: the engine does not send"
            " task-augmented requests to the client; use elicit()"
        )

    async def create_message_as_task(self, *args: Any, **kwargs: Any) -> CreateTaskResult:
        raise NotImplementedError(
            "ServerTaskContext.create_message_as_task() is not supported by ferrymcp: the engine does not send"
            " task-augmented requests to the client; use create_message()"
        )
