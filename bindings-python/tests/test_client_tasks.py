"""Tasks from ferrymcp's Python client (`session.experimental`, the official 1.x names)
against a real ferrymcp task server: the conformance fixture
(tests/fixtures/python/everything.py) spawned over stdio and spoken to in 2026-07-28,
whose tools declare `execution.taskSupport`. The polling interval, the terminal states,
and the answering of a task's input requests are the engine's."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from conftest import PYTHON_EVERYTHING

from ferrymcp import Client, McpError
from ferrymcp.client.experimental.tasks import TaskNotCreatedError
from ferrymcp.types import CallToolResult, CreateTaskResult, ElicitResult, GetTaskResult

pytestmark = pytest.mark.asyncio


async def confirm(context: Any, params: Any) -> ElicitResult:
    return ElicitResult(action="accept", content={"confirm": True, "name": "Ada"})


def everything(**options: Any) -> Client:
    return Client([sys.executable, str(PYTHON_EVERYTHING)], **options)


async def test_a_tool_runs_as_a_task_polled_at_its_interval_until_its_result() -> None:
    async with everything() as client:
        assert client.protocol_version == "2026-07-28"
        created = await client.experimental.call_tool_as_task("slow_compute", {"seconds": 0.3, "label": "x"})
        assert isinstance(created, CreateTaskResult)
        assert created.task.status == "working" and created.task.poll_interval is not None
        seen = [status async for status in client.experimental.poll_task(created.task.task_id)]
        assert all(isinstance(s, GetTaskResult) for s in seen)
        assert [s.status for s in seen][-1] == "completed"
        assert {s.status for s in seen[:-1]} <= {"working"}
        result = await client.experimental.get_task_result(created.task.task_id, CallToolResult)
        assert result.content[0].text == "Computed x in 0.3 s"
        again = await client.experimental.get_task(created.task.task_id)
        assert again.status == "completed"


async def test_a_tasks_input_is_answered_through_the_callbacks_or_by_hand() -> None:
    async with everything(elicitation_callback=confirm) as client:
        created = await client.experimental.call_tool_as_task("confirm_delete", {"filename": "a.txt"})
        result = await client.experimental.get_task_result(created.task.task_id, CallToolResult)
        assert result.content[0].text == "Deleted a.txt"

        created = await client.experimental.call_tool_as_task("confirm_delete", {"filename": "b.txt"})
        async for status in client.experimental.poll_task(created.task.task_id):
            if status.status == "input_required":
                break
        asked = status.model_dump(by_alias=True)["inputRequests"]
        assert len(asked) == 1
        (key,) = asked
        await client.experimental.update_task(created.task.task_id, {key: {"action": "decline"}})
        result = await client.experimental.get_task_result(created.task.task_id, CallToolResult)
        assert result.content[0].text == "Kept b.txt"


async def test_failures_cancellation_and_what_the_extension_lacks() -> None:
    async with everything() as client:
        failing = await client.experimental.call_tool_as_task("protocol_error_job")
        with pytest.raises(McpError) as raised:
            await client.experimental.get_task_result(failing.task.task_id)
        assert raised.value.code == -32603 and "protocol_error_job failed" in raised.value.message

        tool_error = await client.experimental.call_tool_as_task("failing_job")
        result = await client.experimental.get_task_result(tool_error.task.task_id, CallToolResult)
        assert result.is_error and "always fails" in result.content[0].text

        slow = await client.experimental.call_tool_as_task("slow_compute", {"seconds": 30})
        cancelled = await client.experimental.cancel_task(slow.task.task_id)
        assert cancelled.status == "cancelled"
        with pytest.raises(McpError, match="cancelled"):
            await client.experimental.get_task_result(slow.task.task_id)

        with pytest.raises(McpError, match="tasks/list does not exist"):
            await client.experimental.list_tasks()

        with pytest.raises(TaskNotCreatedError) as at_once:
            await client.experimental.call_tool_as_task("greet", {"name": "Ada"})
        assert at_once.value.result.content[0].text == "Hello, Ada!"


async def test_a_legacy_connection_has_no_tasks_update() -> None:
    async with everything(mode="legacy") as client:
        with pytest.raises(McpError, match="tasks/update does not exist"):
            await client.experimental.update_task("t", {})
