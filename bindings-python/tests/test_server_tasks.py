"""The official 1.x experimental tasks on the server side (`server.experimental.enable_tasks()`,
`ctx.experimental.run_task(work)`, `ServerTaskContext`), served by the engine's 2025-11-25
tasks (core's task store, `Context::begin_spec_task`): peers/task_v1_server.py, a 1.x-style
low-level server, over stdio and Streamable HTTP (the v1.x examples'
`StreamableHTTPSessionManager` under uvicorn). The tasks are driven by ferrymcp's client in
the 1.x idiom (`ClientSession.experimental`, as the v1.x task clients): the official client
of tests/interop (mcp 2.3) refuses a `CreateTaskResult` to `tools/call`, so it checks the
declared capability and the calls without `task` on the same server."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from serving import Listening

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")
t = pytest.importorskip("mcp_types")


PEER = Path(__file__).resolve().parent / "peers" / "task_v1_server.py"
TTL = 60_000


async def confirm(context: Any, params: Any) -> Any:
    from ferrymcp.types import ElicitResult

    assert params.message == "Sure?"
    return ElicitResult(action="accept", content={"confirm": True})


async def sample(context: Any, params: Any) -> Any:
    from ferrymcp.types import CreateMessageResult, TextContent

    return CreateMessageResult(model="m", role="assistant", content=TextContent(type="text", text="leaves fall"))


@asynccontextmanager
async def served(transport: str, *args: str) -> AsyncIterator[str | None]:
    """The peer's URL over HTTP (`None` over stdio, where each client spawns it); `args`
    for the peer over HTTP (over stdio, the session's)."""
    if transport == "stdio":
        yield None
        return
    listening = Listening(PEER, *args)
    try:
        yield listening.url
    finally:
        listening.stop()


@asynccontextmanager
async def ferrymcp_session(url: str | None, *args: str) -> AsyncIterator[Any]:
    """ferrymcp's client in the 1.x idiom the v1.x task clients use (`args` for the peer
    it spawns over stdio)."""
    from ferrymcp import ClientSession
    from ferrymcp.client.stdio import StdioServerParameters, stdio_client
    from ferrymcp.client.streamable_http import streamablehttp_client

    callbacks = {"elicitation_callback": confirm, "sampling_callback": sample}
    if url is None:
        params = StdioServerParameters(command=sys.executable, args=[str(PEER), *args])
        async with stdio_client(params) as (read, write), ClientSession(read, write, **callbacks) as session:
            await session.initialize()
            yield session
        return
    async with streamablehttp_client(url) as (read, write, _), ClientSession(read, write, **callbacks) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def official(url: str | None) -> AsyncIterator[Any]:
    if url is None:
        params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER)])
        async with mcp.Client(params, mode="legacy") as client:
            yield client
        return
    from mcp.client.streamable_http import streamable_http_client

    async with mcp.Client(streamable_http_client(url), mode="legacy") as client:
        yield client


STORES = {"engine": (), "application": ("--app-store",)}


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_1x_servers_tools_run_as_tasks(transport: str, store: str) -> None:
    """The same tasks kept in the engine's store and in one of the application's (a
    `TaskStore` subclass passed to `enable_tasks(store=...)`, which pages by 2)."""
    from ferrymcp.types import CallToolResult

    args = STORES[store]
    async with served(transport, *args) as url, ferrymcp_session(url, *args) as session:
        tasks = session.experimental
        created = await tasks.call_tool_as_task("steps", {}, ttl=TTL)
        assert created.task.status == "working" and created.task.ttl == TTL
        task_id = created.task.task_id
        statuses = [status async for status in tasks.poll_task(task_id)]
        assert statuses[-1].status == "completed" and statuses[-1].status_message == "step 2"
        done = await tasks.get_task_result(task_id, CallToolResult)
        assert done.content[0].text == f"done {task_id}"

        # The work's elicitation and sampling reach the client's callbacks.
        asked = await tasks.call_tool_as_task("ask", {"filename": "a.txt"})
        assert (await tasks.get_task_result(asked.task.task_id, CallToolResult)).content[0].text == "confirmed=True"
        haiku = await tasks.call_tool_as_task("haiku", {})
        text = (await tasks.get_task_result(haiku.task.task_id, CallToolResult)).content[0].text
        assert text == "Haiku: leaves fall"

        # What the work raises fails the task, kept as a failed tool result (core's rule).
        failing = await tasks.call_tool_as_task("boom", {})
        failed = await tasks.get_task_result(failing.task.task_id, CallToolResult)
        assert failed.is_error and failed.content[0].text == "the work broke"
        assert (await tasks.get_task(failing.task.task_id)).status == "failed"

        listed = await tasks.list_tasks()
        assert {task.task_id for task in listed.tasks} >= {task_id, failing.task.task_id}

        # The client's tasks/cancel cancels the work.
        waiting = await tasks.call_tool_as_task("forever", {})
        async for status in tasks.poll_task(waiting.task.task_id):
            if status.status_message == "waiting":
                break
        assert (await tasks.cancel_task(waiting.task.task_id)).status == "cancelled"
        assert (await tasks.get_task(waiting.task.task_id)).status == "cancelled"

        # An optional tool runs as a task when asked to.
        either = await tasks.call_tool_as_task("either", {})
        assert (await tasks.get_task_result(either.task.task_id, CallToolResult)).content[0].text == "as a task"

        # Every task, its status and its result were kept in the application's store.
        stored = (await session.call_tool("stored", {})).content[0].text
        if store == "engine":
            assert stored == ""
            return
        held = dict(entry.split("=") for entry in stored.split())
        assert held == {
            task_id: "completed+result",
            asked.task.task_id: "completed+result",
            haiku.task.task_id: "completed+result",
            failing.task.task_id: "failed+result",
            waiting.task.task_id: "cancelled",
            either.task.task_id: "completed+result",
        }
        # The four tasks of then were listed in one page, though the store pages by 2.
        assert len(listed.tasks) == 4 and listed.next_cursor is None


async def test_an_application_store_serves_each_session_only_its_own_tasks() -> None:
    """Two sessions of one HTTP server whose tasks are kept in the application's store,
    which knows nothing of sessions: each gets, lists and cancels only its own tasks, as
    the official server scopes them (the session's scope in the task id)."""
    from ferrymcp.exceptions import McpError
    from ferrymcp.server.experimental.task_scope import session_scope_of
    from ferrymcp.types import CallToolResult

    async with served("http", "--app-store") as url:
        async with ferrymcp_session(url) as first, ferrymcp_session(url) as second:
            mine = await first.experimental.call_tool_as_task("forever", {})
            theirs = await second.experimental.call_tool_as_task("steps", {})
            scopes = {session_scope_of(mine.task.task_id), session_scope_of(theirs.task.task_id)}
            assert None not in scopes and len(scopes) == 2, scopes
            for other, task in ((second, mine), (first, theirs)):
                with pytest.raises(McpError, match=f"Task not found: {task.task.task_id}") as refused:
                    await other.experimental.get_task(task.task.task_id)
                assert refused.value.code == -32602
                with pytest.raises(McpError, match="Task not found"):
                    await other.experimental.cancel_task(task.task.task_id)
                with pytest.raises(McpError, match="Task not found"):
                    await other.experimental.get_task_result(task.task.task_id, CallToolResult)
            assert [t.task_id for t in (await first.experimental.list_tasks()).tasks] == [mine.task.task_id]
            assert [t.task_id for t in (await second.experimental.list_tasks()).tasks] == [theirs.task.task_id]
            # The refused cancel left the task running; its own session cancels it.
            assert (await first.experimental.get_task(mine.task.task_id)).status == "working"
            assert (await first.experimental.cancel_task(mine.task.task_id)).status == "cancelled"


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_official_client_sees_the_capability_and_the_refusals(transport: str) -> None:
    """The official client (2.3, which refuses a `CreateTaskResult` to `tools/call`, so it
    cannot start a task itself) on the same server: the declared capability, and the
    calls without `task`."""
    async with served(transport) as url, official(url) as client:
        assert client.session.protocol_version == "2025-11-25"
        # enable_tasks() has the engine declare tasks (no tool registered with core).
        tasks = client.server_capabilities.tasks
        assert tasks is not None and tasks.list is not None and tasks.cancel is not None
        assert tasks.requests is not None and tasks.requests.tools is not None
        # A required tool called without `task`: the official words, an `isError` result as
        # 1.x's `@server.call_tool()` makes of what the handler raises.
        refused = await client.call_tool("steps", {})
        assert refused.is_error and refused.content[0].text == "This tool requires task-augmented invocation"
        # An optional tool runs at once without `task`; a tool without taskSupport refuses one.
        assert (await client.call_tool("either", {})).content[0].text == "at once"
        listed = await client.session.send_request(t.ListTasksRequest(), t.ListTasksResult)
        assert listed.tasks == []
        request = t.GetTaskRequest(params=t.GetTaskRequestParams(task_id="nope"))
        with pytest.raises(mcp.MCPError, match="nope"):
            await client.session.send_request(request, t.GetTaskResult)


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_tool_without_task_support_refuses_a_task(transport: str) -> None:
    from ferrymcp.client.experimental.tasks import TaskNotCreatedError

    async with served(transport) as url, ferrymcp_session(url) as session:
        with pytest.raises(TaskNotCreatedError) as refused:
            await session.experimental.call_tool_as_task("plain", {})
        answer = refused.value.result
        assert answer.is_error and answer.content[0].text == "This tool does not support task-augmented invocation"


def test_what_the_engine_does_not_take_is_refused_by_name() -> None:
    from ferrymcp.server.experimental.task_result_handler import TaskResultHandler
    from ferrymcp.server.lowlevel import Server
    from ferrymcp.shared.experimental.tasks.helpers import is_terminal
    from ferrymcp.shared.experimental.tasks.in_memory_task_store import InMemoryTaskStore
    from ferrymcp.shared.experimental.tasks.message_queue import InMemoryTaskMessageQueue, TaskMessageQueue

    server: Server = Server("x")
    with pytest.raises(TypeError, match=r"enable_tasks\(store=\.\.\.\) takes a TaskStore .* not object"):
        server.experimental.enable_tasks(store=object())

    class Extended(InMemoryTaskStore):
        async def create_task(self, metadata: Any, task_id: str | None = None) -> Any:
            raise AssertionError("never run")

    with pytest.raises(NotImplementedError, match="Extended, a subclass of InMemoryTaskStore"):
        server.experimental.enable_tasks(store=Extended())
    with pytest.raises(NotImplementedError, match=r"enable_tasks\(queue=\.\.\.\)"):
        server.experimental.enable_tasks(queue=object())
    support = server.experimental.enable_tasks(store=InMemoryTaskStore(), queue=InMemoryTaskMessageQueue())
    assert server.experimental.task_support is support
    with pytest.raises(NotImplementedError, match="TaskResultHandler"):
        TaskResultHandler()
    with pytest.raises(NotImplementedError, match="TaskMessageQueue"):
        TaskMessageQueue()
    assert [is_terminal(s) for s in ("working", "input_required", "completed", "failed", "cancelled")] == [
        False,
        False,
        True,
        True,
        True,
    ]


async def test_an_application_store_on_a_stateless_server_keeps_tasks_without_a_scope() -> None:
    """Without sessions (stateless HTTP) the tasks have no scope, as the official server
    makes them: any request holding the id reaches the task, and none lists it."""
    from ferrymcp.server.experimental.task_scope import session_scope_of
    from ferrymcp.types import CallToolResult

    async with served("http", "--app-store", "--stateless") as url:
        async with ferrymcp_session(url) as first, ferrymcp_session(url) as second:
            created = await first.experimental.call_tool_as_task("steps", {})
            task_id = created.task.task_id
            assert session_scope_of(task_id) is None
            done = await second.experimental.get_task_result(task_id, CallToolResult)
            assert done.content[0].text == f"done {task_id}"
            assert (await second.experimental.get_task(task_id)).status == "completed"
            assert (await first.experimental.list_tasks()).tasks == []
            assert f"{task_id}=completed+result" in (await first.call_tool("stored", {})).content[0].text
