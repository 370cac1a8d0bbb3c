"""The tasks extension from Python: a tool declared with `execution={"taskSupport": ...}`
runs as a task for a 2026-07-28 client that accepts tasks, its input going through the
task; a tool registered with `task_start="on_request"` gathers input by MRTR rounds first
and starts its task with `ctx.start_task()`. A real server process driven over stdio; the
task messages are checked against the extension's schema (tests/mcp-schema)."""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from raw_stdio import MODERN, RawServer, check, modern_meta

TASKS = "io.modelcontextprotocol/tasks"
EXT = "ext-tasks"

SERVER = """
import asyncio
import time
from ferrymcp import Context, MCPServer

mcp = MCPServer("tasks")

@mcp.tool(execution={"taskSupport": "optional"})
async def confirm(ctx: Context) -> str:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    answer = await ctx.request_input("elicitation/create", {"message": "Sure?", "requestedSchema": schema}, key="ok")
    return f"{ctx.task_id is not None}:{answer['content']['ok']}"

@mcp.tool(execution={"taskSupport": "required"})
def blocking(n: int) -> str:
    time.sleep(0.05)
    return str(n * 2)

@mcp.tool(execution={"taskSupport": "required"}, task_start="on_request")
async def then_task(ctx: Context) -> str:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    answer = await ctx.request_input("elicitation/create", {"message": "Name?", "requestedSchema": schema}, key="name")
    started = ctx.start_task()
    await asyncio.sleep(0.05)
    return f"{started}:{answer['content']['name']}"

mcp.run()
"""


@pytest.fixture
def server(tmp_path: Path) -> RawServer:
    script = tmp_path / "tasks_server.py"
    script.write_text(SERVER)
    return RawServer([sys.executable, str(script)], MODERN)


ids = itertools.count(1)


def call(server: RawServer, method: str, params: dict[str, Any], tasks: bool = True) -> dict[str, Any]:
    capabilities: dict[str, Any] = {"elicitation": {}}
    if tasks:
        capabilities["extensions"] = {TASKS: {}}
    definition = "CallToolRequest" if method == "tools/call" else "JSONRPCRequest"
    return server.request(next(ids), definition, method, {**params, "_meta": modern_meta(**capabilities)})


def until(server: RawServer, task_id: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        task = call(server, "tasks/get", {"taskId": task_id})["result"]
        check(EXT, "GetTaskResult", task)
        if task["status"] == status:
            return task
        time.sleep(0.02)
    raise AssertionError(f"task {task_id} never reached {status}")


def created(response: dict[str, Any]) -> str:
    result = response["result"]
    check(EXT, "CreateTaskResult", result)
    check(MODERN, "CallToolResult", result)
    return result["taskId"]


def test_a_declared_tool_runs_as_a_task_with_its_input_inside(server: RawServer) -> None:
    tools = call(server, "tools/list", {})["result"]["tools"]
    assert {t["name"]: t.get("execution") for t in tools}["confirm"] == {"taskSupport": "optional"}
    task_id = created(call(server, "tools/call", {"name": "confirm", "arguments": {}}))
    asked = until(server, task_id, "input_required")
    assert list(asked["inputRequests"]) == ["ok"]
    answers = {"ok": {"action": "accept", "content": {"ok": True}}}
    ack = call(server, "tasks/update", {"taskId": task_id, "inputResponses": answers})
    check(EXT, "UpdateTaskResult", ack["result"])
    done = until(server, task_id, "completed")
    assert done["result"]["content"][0]["text"] == "True:True"
    assert server.close() == 0


def test_a_sync_tool_runs_as_a_task_and_without_the_extension_is_refused(server: RawServer) -> None:
    task_id = created(call(server, "tools/call", {"name": "blocking", "arguments": {"n": 21}}))
    assert until(server, task_id, "completed")["result"]["content"][0]["text"] == "42"
    refused = call(server, "tools/call", {"name": "blocking", "arguments": {"n": 1}}, tasks=False)
    assert refused["error"]["code"] == -32021
    assert server.close() == 0


def test_a_tool_gathers_input_by_mrtr_then_starts_its_task(server: RawServer) -> None:
    first = call(server, "tools/call", {"name": "then_task", "arguments": {}})["result"]
    check(MODERN, "InputRequiredResult", first)
    assert "taskId" not in first
    answers = {"name": {"action": "accept", "content": {"name": "Ada"}}}
    retry: dict[str, Any] = {"name": "then_task", "arguments": {}, "inputResponses": answers}
    if "requestState" in first:
        retry["requestState"] = first["requestState"]
    task_id = created(call(server, "tools/call", retry))
    assert until(server, task_id, "completed")["result"]["content"][0]["text"] == "True:Ada"
    assert server.close() == 0
