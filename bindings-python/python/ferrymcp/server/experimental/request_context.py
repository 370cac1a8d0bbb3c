"""`Experimental` (`mcp.server.experimental.request_context`): `ctx.experimental` of a
low-level request, the official helpers for 2025-11-25 task-augmented tool calls.

`run_task(work)` turns the request into a task the engine keeps (core's
`Context::begin_spec_task`: the task created from the request's `task` params, answered
with its `CreateTaskResult`) and runs `work(ServerTaskContext)` beside it on this event
loop (asyncio); what `work` returns completes the task, what it raises fails it, and the
client's `tasks/cancel` cancels it. `validate_task_mode` is core's rule
(`check_spec_task_mode`), worded as the official SDK words it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ferrymcp._native import check_task_mode
from ferrymcp.exceptions import McpError
from ferrymcp.server.experimental.task_context import ServerTaskContext
from ferrymcp.types import ClientCapabilities, CreateTaskResult, ErrorData, TaskMetadata, Tool

if TYPE_CHECKING:
    from ferrymcp._session import ServerSession

__all__ = ["Experimental"]

logger = logging.getLogger(__name__)

MODEL_IMMEDIATE_RESPONSE_KEY = "io.modelcontextprotocol/model-immediate-response"

# The running works, kept from the garbage collector until they end.
_RUNNING: set[asyncio.Task[None]] = set()


@dataclass
class Experimental:
    """`ctx.experimental` (see the module doc)."""

    task_metadata: TaskMetadata | None = None
    _client_capabilities: ClientCapabilities | None = field(default=None, repr=False)
    _session: ServerSession | None = field(default=None, repr=False)
    _task_support: Any = field(default=None, repr=False)

    @property
    def is_task(self) -> bool:
        return self.task_metadata is not None

    @property
    def client_supports_tasks(self) -> bool:
        capabilities = self._client_capabilities
        return capabilities is not None and getattr(capabilities, "tasks", None) is not None

    def validate_task_mode(self, tool_task_mode: str | None, *, raise_error: bool = True) -> ErrorData | None:
        refused = check_task_mode(tool_task_mode, self.is_task)
        if refused is None:
            return None
        code, message = refused
        if raise_error:
            raise McpError(code, message)
        return ErrorData(code=code, message=message)

    def validate_for_tool(self, tool: Tool, *, raise_error: bool = True) -> ErrorData | None:
        execution = tool.execution
        mode = getattr(execution, "task_support", None) if execution is not None else None
        return self.validate_task_mode(mode, raise_error=raise_error)

    def can_use_tool(self, tool_task_mode: str | None) -> bool:
        return not (tool_task_mode == "required" and not self.client_supports_tasks)

    async def run_task(
        self,
        work: Callable[[ServerTaskContext], Awaitable[Any]],
        *,
        task_id: str | None = None,
        model_immediate_response: str | None = None,
    ) -> CreateTaskResult:
        from ferrymcp import _aio

        _aio.unsupported_under_trio("ctx.experimental.run_task()")
        if task_id is not None:
            raise NotImplementedError(
                "run_task(task_id=...) is not supported by ferrymcp: the engine draws task ids itself (an explicit"
                " id, deprecated in the official SDK, would not belong to the creating session)"
            )
        if self._task_support is None:
            raise RuntimeError("Task support not enabled. Call server.experimental.enable_tasks() first.")
        if self._session is None:
            raise RuntimeError("Session not available.")
        if self.task_metadata is None:
            raise RuntimeError(
                "Request is not task-augmented (no 'task' field in params). The client must send a task-augmented"
                " request."
            )
        native_ctx = self._session._native
        metadata = self.task_metadata.model_dump(by_alias=True, exclude_none=True)
        created, native = await native_ctx.begin_spec_task(metadata)
        answer = CreateTaskResult.model_validate(created)
        task = ServerTaskContext(native, answer.task, self._session._server)
        running = asyncio.ensure_future(_drive(task, work))
        _RUNNING.add(running)
        running.add_done_callback(_RUNNING.discard)
        if model_immediate_response is not None:
            return CreateTaskResult.model_validate(
                {**created, "_meta": {MODEL_IMMEDIATE_RESPONSE_KEY: model_immediate_response}}
            )
        return answer


async def _drive(task: ServerTaskContext, work: Callable[[ServerTaskContext], Awaitable[Any]]) -> None:
    """Runs `work` until it ends or the client cancels the task; ends the task with what
    `work` returned or raised, unless `work` ended it itself."""
    job = asyncio.ensure_future(work(task))
    cancelled = asyncio.ensure_future(task._native.cancelled())
    try:
        await asyncio.wait({job, cancelled}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not job.done():
            job.cancel()
        cancelled.cancel()
    if job.cancelled():
        return
    error = job.exception()
    try:
        if task._ended:
            return
        if error is not None:
            await task.fail(str(error))
        else:
            await task.complete(job.result())
    except Exception:  # noqa: BLE001 - a task the store refuses to end (cancelled, expired) is logged
        logger.exception("could not end task %s", task.task_id)
