"""A low-level server in the official 1.x style that runs its tools as 2025-11-25 tasks
(`server.experimental.enable_tasks()`, `ctx.experimental.validate_task_mode`,
`ctx.experimental.run_task(work)`, `ServerTaskContext.update_status` / `elicit` /
`create_message`), with only the imports naming ferrymcp. test_server_tasks.py serves it
over stdio (`python task_v1_server.py`) and Streamable HTTP (`... PORT`, the
v1.x examples' `StreamableHTTPSessionManager` under Starlette and uvicorn)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

from ferrymcp import types
from ferrymcp.server.experimental.task_context import ServerTaskContext
from ferrymcp.server.lowlevel import Server
from ferrymcp.server.stdio import stdio_server

server: Server = Server("task-v1")
server.experimental.enable_tasks()

MODES = {"steps": types.TASK_REQUIRED, "ask": types.TASK_REQUIRED, "haiku": types.TASK_REQUIRED}
MODES |= {"boom": types.TASK_REQUIRED, "forever": types.TASK_REQUIRED, "either": types.TASK_OPTIONAL}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {}}
    return [
        types.Tool(name=name, input_schema=schema, execution=types.ToolExecution(task_support=mode))
        for name, mode in MODES.items()
    ] + [types.Tool(name="plain", input_schema=schema)]


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

    manager = StreamableHTTPSessionManager(app=server)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(routes=[Mount("/mcp", app=manager.handle_request)], lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    if sys.argv[1:]:
        http(int(sys.argv[1]))
    else:
        anyio.run(stdio)
