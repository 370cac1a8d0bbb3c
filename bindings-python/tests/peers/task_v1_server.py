"""A low-level server in the official 1.x style that runs its tools as 2025-11-25 tasks
(`server.experimental.enable_tasks()`, `ctx.experimental.validate_task_mode`,
`ctx.experimental.run_task(work)`, `ServerTaskContext.update_status` / `elicit` /
`create_message`), with only the imports naming ferrymcp. test_server_tasks.py serves it
over stdio (`python task_v1_server.py`) and Streamable HTTP (`... PORT`, the
v1.x examples' `StreamableHTTPSessionManager` under Starlette and uvicorn); with
`--app-store` it keeps its tasks in a `TaskStore` of its own (`DictTaskStore`, written as
the v1.x "Custom Task Store" documentation has one written), and its tool `stored`
tells what that store holds; `--stateless` serves HTTP without sessions."""

from __future__ import annotations

import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from typing import Any

import anyio

from ferrymcp import types
from ferrymcp.server.experimental.task_context import ServerTaskContext
from ferrymcp.server.lowlevel import Server
from ferrymcp.server.stdio import stdio_server
from ferrymcp.shared.experimental.tasks.store import TaskStore


class DictTaskStore(TaskStore):
    """An application's task store: tasks in a dict, listed two to a page."""

    def __init__(self) -> None:
        self.tasks: dict[str, types.Task] = {}
        self.results: dict[str, types.Result] = {}
        self.changed: dict[str, anyio.Event] = {}

    async def create_task(self, metadata: types.TaskMetadata, task_id: str | None = None) -> types.Task:
        task_id = task_id or str(uuid.uuid4())
        if task_id in self.tasks:
            raise ValueError(f"Task {task_id} already exists")
        now = datetime.now(timezone.utc)
        task = types.Task(
            task_id=task_id, status="working", created_at=now, last_updated_at=now, ttl=metadata.ttl, poll_interval=50
        )
        self.tasks[task_id] = task
        return task

    async def get_task(self, task_id: str) -> types.Task | None:
        return self.tasks.get(task_id)

    async def update_task(self, task_id: str, status: Any = None, status_message: str | None = None) -> types.Task:
        task = self.tasks.get(task_id)
        if task is None:
            raise ValueError(f"Task {task_id} not found")
        if status is not None and task.status in ("completed", "failed", "cancelled"):
            raise ValueError(f"Cannot transition from terminal status '{task.status}'")
        if status is not None:
            task.status = status
        if status_message is not None:
            task.status_message = status_message
        task.last_updated_at = datetime.now(timezone.utc)
        await self.notify_update(task_id)
        return task

    async def store_result(self, task_id: str, result: types.Result) -> None:
        if task_id not in self.tasks:
            raise ValueError(f"Task {task_id} not found")
        self.results[task_id] = result

    async def get_result(self, task_id: str) -> types.Result | None:
        return self.results.get(task_id)

    async def list_tasks(self, cursor: str | None = None) -> tuple[list[types.Task], str | None]:
        ids = list(self.tasks)
        start = ids.index(cursor) + 1 if cursor else 0
        page = ids[start : start + 2]
        return [self.tasks[i] for i in page], (page[-1] if start + 2 < len(ids) else None)

    async def delete_task(self, task_id: str) -> bool:
        self.results.pop(task_id, None)
        return self.tasks.pop(task_id, None) is not None

    async def wait_for_update(self, task_id: str) -> None:
        await self.changed.setdefault(task_id, anyio.Event()).wait()

    async def notify_update(self, task_id: str) -> None:
        self.changed.pop(task_id, anyio.Event()).set()


STORE = DictTaskStore() if "--app-store" in sys.argv else None
server: Server = Server("task-v1")
server.experimental.enable_tasks(store=STORE)

MODES = {"steps": types.TASK_REQUIRED, "ask": types.TASK_REQUIRED, "haiku": types.TASK_REQUIRED}
MODES |= {"boom": types.TASK_REQUIRED, "forever": types.TASK_REQUIRED, "either": types.TASK_OPTIONAL}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {}}
    return [
        types.Tool(name=name, input_schema=schema, execution=types.ToolExecution(task_support=mode))
        for name, mode in MODES.items()
    ] + [types.Tool(name="plain", input_schema=schema), types.Tool(name="stored", input_schema=schema)]


async def steps(task: ServerTaskContext) -> types.CallToolResult:
    await task.update_status("step 1")
    assert task.task.status_message == "step 1"
    await task.update_status("step 2")
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"done {task.task_id}")])


async def ask(task: ServerTaskContext) -> types.CallToolResult:
    schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
    answer = await task.elicit(message="Sure?", requestedSchema=schema)
    confirmed = answer.action == "accept" and bool((answer.content or {}).get("confirm"))
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"confirmed={confirmed}")])


async def haiku(task: ServerTaskContext) -> types.CallToolResult:
    message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text="a haiku"))
    answer = await task.create_message(messages=[message], max_tokens=20)
    text = answer.content.text if isinstance(answer.content, types.TextContent) else "?"
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"Haiku: {text}")])


async def boom(task: ServerTaskContext) -> types.CallToolResult:
    raise RuntimeError("the work broke")


async def forever(task: ServerTaskContext) -> types.CallToolResult:
    await task.update_status("waiting")
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


async def either(task: ServerTaskContext) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text="as a task")])


WORKS = {"steps": steps, "ask": ask, "haiku": haiku, "boom": boom, "forever": forever, "either": either}


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult | types.CreateTaskResult:
    ctx = server.request_context
    if name == "plain":
        ctx.experimental.validate_task_mode(None)
        return types.CallToolResult(content=[types.TextContent(type="text", text="plain")])
    if name == "stored":  # what the application's store holds: "id=status" (+result when stored)
        held = STORE.tasks if STORE is not None else {}
        results = STORE.results if STORE is not None else {}
        text = " ".join(f"{i}={task.status}" + ("+result" if i in results else "") for i, task in held.items())
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])
    ctx.experimental.validate_task_mode(MODES[name])
    if name == "either" and not ctx.experimental.is_task:
        return types.CallToolResult(content=[types.TextContent(type="text", text="at once")])
    return await ctx.experimental.run_task(WORKS[name])


async def stdio() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from ferrymcp.server.streamable_http_manager import StreamableHTTPSessionManager

    manager = StreamableHTTPSessionManager(app=server, stateless="--stateless" in sys.argv)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(routes=[Mount("/mcp", app=manager.handle_request)], lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    ports = [arg for arg in sys.argv[1:] if arg.isdigit()]
    if ports:
        http(int(ports[0]))
    else:
        anyio.run(stdio)
