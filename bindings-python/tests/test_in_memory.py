"""A ferrymcp `Client` and an `MCPServer` connected in memory, through the engine.

Needs the native module. Covers what a server author and a client author see: tools
(sync on worker threads, async on the loop), errors, structured output, resources and
templates, prompts, completion, the `Context` features (progress, logging, elicitation,
sampling, roots, cancellation) in both eras, list changes, and the lifespan.
"""

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from arrivals import LIMIT, Arrivals

from ferrymcp import Client, Context, McpError, MCPServer, RequestTimeout
from ferrymcp.types import (
    CreateMessageResult,
    ElicitResult,
    EmptyResult,
    ListRootsResult,
    PromptReference,
    Root,
    SetLevelRequestParams,
    TextContent,
    ToolListChangedNotification,
)

MODES = ["legacy", "2026-07-28", "auto"]


def build() -> tuple[MCPServer, dict[str, Any]]:
    state: dict[str, Any] = {"cancelled": asyncio.Event(), "threads": []}

    @asynccontextmanager
    async def lifespan(server: MCPServer) -> AsyncIterator[dict[str, str]]:
        yield {"db": "connected"}

    mcp = MCPServer("memory", version="9.9", instructions="Be kind", lifespan=lifespan)

    @mcp.tool()
    def add(a: int, b: int) -> int:
        """Adds two numbers."""
        state["threads"].append(threading.current_thread() is threading.main_thread())
        return a + b

    @mcp.tool()
    async def divide(a: float, b: float) -> float:
        return a / b

    @mcp.tool()
    def refuse() -> str:
        raise McpError(-32099, "refused", {"why": "test"})

    @mcp.tool()
    def slow_sync(seconds: float) -> str:
        threading.Event().wait(seconds)
        return "slow done"

    @mcp.tool()
    async def forever(ctx: Context) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            state["cancelled"].set()
            raise
        return "never"

    @mcp.tool()
    async def progress(ctx: Context) -> str:
        for step in (1, 2, 3):
            await ctx.report_progress(step, 3, f"step {step}")
        return str(ctx.request_context.meta.progress_token is not None)

    @mcp.tool()
    async def chatty(ctx: Context) -> str:
        await ctx.debug("d")
        await ctx.info({"k": 1}, logger_name="app")
        await ctx.error("e")
        return "logged"

    @mcp.tool()
    async def ask_name(ctx: Context) -> str:
        schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        answer = await ctx.elicit("Your name?", schema)
        return f"hello {answer.data['name']}" if answer.action == "accept" else answer.action

    @mcp.tool()
    async def ask_model(ctx: Context) -> str:
        result = await ctx.sample("Capital of France?", max_tokens=10)
        return result.content.text

    @mcp.tool()
    async def roots(ctx: Context) -> int:
        return len((await ctx.list_roots()).roots)

    @mcp.tool()
    async def lifespan_value(ctx: Context) -> str:
        return ctx.request_context.lifespan_context["db"]

    @mcp.tool()
    async def add_tool_now() -> str:
        mcp.add_tool(lambda: "new", name="late")
        await mcp.notify_tools_changed()
        return "added"

    @mcp.resource("mem://text", mime_type="text/plain")
    def text() -> str:
        return "static text"

    @mcp.resource("mem://bytes", mime_type="application/octet-stream")
    def data() -> bytes:
        return b"\x00\x01"

    @mcp.resource("users://{user_id}")
    def user(user_id: int) -> dict[str, Any]:
        return {"id": user_id, "type": type(user_id).__name__}

    @mcp.prompt(description="Greets")
    def greet(name: str, times: int = 1) -> str:
        return f"hi {name} " * times

    @mcp.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> list[str]:
        return [f"{argument.value}-1", f"{argument.value}-2"]

    return mcp, state


async def sampling(context: Any, params: Any) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(text="Paris"), model="m", stop_reason="endTurn")


async def elicitation(context: Any, params: Any) -> ElicitResult:
    return ElicitResult(action="accept", content={"name": "Ada"})


async def list_roots(context: Any) -> ListRootsResult:
    return ListRootsResult(roots=[Root(uri="file:///a"), Root(uri="file:///b")])


def client(mcp: MCPServer, mode: str, **options: Any) -> Client:
    return Client(
        mcp,
        mode=mode,
        sampling_callback=sampling,
        elicitation_callback=elicitation,
        list_roots_callback=list_roots,
        **options,
    )


@pytest.mark.parametrize("mode", MODES)
async def test_identity_and_listing(mode: str) -> None:
    mcp, _ = build()
    async with client(mcp, mode) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        assert c.server_info is not None and (c.server_info.name, c.server_info.version) == ("memory", "9.9")
        if mode == "legacy":
            assert c.instructions == "Be kind"
        assert c.server_capabilities.tools is not None
        listed = (await c.list_tools()).tools
        assert listed == await mcp.list_tools()
        assert [t.uri_template for t in (await c.list_resource_templates()).resource_templates] == ["users://{user_id}"]


@pytest.mark.parametrize("mode", MODES)
async def test_tools(mode: str) -> None:
    mcp, state = build()
    async with client(mcp, mode) as c:
        result = await c.call_tool("add", {"a": 2, "b": 3})
        assert result.content == [TextContent(text="5")] and result.structured_content == {"result": 5}
        assert state["threads"] == [False], "a sync tool runs on a worker thread"
        assert (await c.call_tool("divide", {"a": 1, "b": 4})).structured_content == {"result": 0.25}
        failed = await c.call_tool("divide", {"a": 1, "b": 0})
        # A crash: its text stays on the server, as the official 2.x `UnexpectedToolError`.
        assert failed.is_error and failed.content[0].text == "Error executing tool divide"
        with pytest.raises(McpError) as refused:
            await c.call_tool("refuse", {})
        assert (refused.value.code, refused.value.data) == (-32099, {"why": "test"})
        # An unknown tool is a result the model sees, as the official MCPServer answers.
        unknown = await c.call_tool("no_such_tool", {})
        assert unknown.is_error and unknown.content[0].text == "Unknown tool: no_such_tool"
        assert (await c.call_tool("lifespan_value", {})).content[0].text == "connected"


async def test_a_slow_sync_tool_blocks_nothing() -> None:
    mcp, _ = build()
    async with client(mcp, "legacy") as c:
        slow = asyncio.ensure_future(c.call_tool("slow_sync", {"seconds": 1.0}))
        fast = await c.call_tool("add", {"a": 1, "b": 1})
        assert fast.content[0].text == "2" and not slow.done()
        assert (await slow).content[0].text == "slow done"


@pytest.mark.parametrize("mode", MODES)
async def test_resources_prompts_completion(mode: str) -> None:
    mcp, _ = build()
    async with client(mcp, mode) as c:
        assert (await c.read_resource("mem://text")).contents[0].text == "static text"
        assert (await c.read_resource("mem://bytes")).contents[0].blob == "AAE="
        templated = await c.read_resource("users://42")
        assert templated.contents[0].text == '{\n  "id": 42,\n  "type": "int"\n}'
        prompt = await c.get_prompt("greet", {"name": "Ada", "times": "2"})
        assert prompt.messages[0].content.text == "hi Ada hi Ada " and prompt.description == "Greets"
        # A required argument missing fails the prompt as the official `MCPServer`'s
        # `ValueError` does: code 0 and its text on a legacy session, sanitised at 2026-07-28.
        with pytest.raises(McpError) as missing:
            await c.get_prompt("greet", {})
        if c.protocol_version == "2026-07-28":
            assert (missing.value.code, str(missing.value)) == (-32603, "Internal server error")
        else:
            assert (missing.value.code, str(missing.value)) == (0, "Missing required arguments: {'name'}")
        done = await c.complete(PromptReference(name="greet"), {"name": "name", "value": "A"})
        assert done.completion.values == ["A-1", "A-2"]


@pytest.mark.parametrize("mode", MODES)
async def test_progress(mode: str) -> None:
    mcp, _ = build()
    seen: Arrivals[tuple[float, Any, Any]] = Arrivals()

    async def on_progress(progress: float, total: Any, message: Any) -> None:
        seen.append((progress, total, message))

    async with client(mcp, mode) as c:
        result = await c.call_tool("progress", {}, progress_callback=on_progress)
        assert result.content[0].text == "True"
        await seen.reach(3)
    assert seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


async def test_logging_in_a_legacy_session() -> None:
    mcp, _ = build()
    logs: Arrivals[Any] = Arrivals()

    async def on_log(params: Any) -> None:
        logs.append((params.level, params.data, params.logger))

    # As the official `MCPServer`, `logging/setLevel` is served once the application gives
    # it a handler (the official everything server's way); the engine holds the session
    # to the level set.
    async def set_level(ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
        return EmptyResult()

    mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    async with client(mcp, "legacy", logging_callback=on_log) as c:
        await c.set_logging_level("info")
        await c.call_tool("chatty", {})
        await logs.reach(2)
    assert logs == [("info", {"k": 1}, "app"), ("error", "e", None)]


async def test_logging_on_a_modern_request_needs_the_opt_in() -> None:
    mcp, _ = build()
    logs: Arrivals[Any] = Arrivals()

    async def on_log(params: Any) -> None:
        logs.append(params.level)

    async with client(mcp, "2026-07-28", logging_callback=on_log, log_level="debug") as c:
        await c.call_tool("chatty", {})
        await logs.reach(3)
    assert logs == ["debug", "info", "error"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_server_asks_the_client(mode: str) -> None:
    mcp, _ = build()
    async with client(mcp, mode) as c:
        if c.protocol_version == "2026-07-28":
            # The session's requests have no back-channel there, as in the official SDK.
            for tool in ("ask_name", "ask_model", "roots"):
                with pytest.raises(McpError, match="no back-channel for server-initiated requests"):
                    await c.call_tool(tool, {})
            return
        assert (await c.call_tool("ask_name", {})).content[0].text == "hello Ada"
        assert (await c.call_tool("ask_model", {})).content[0].text == "Paris"
        assert (await c.call_tool("roots", {})).structured_content == {"result": 2}


async def test_cancelling_a_call_cancels_the_async_tool() -> None:
    mcp, state = build()
    async with client(mcp, "legacy") as c:
        with pytest.raises(RequestTimeout):
            await c.call_tool("forever", {}, read_timeout_seconds=0.2)
        await asyncio.wait_for(state["cancelled"].wait(), LIMIT)


async def test_tools_added_while_serving_are_listed_and_announced() -> None:
    mcp, _ = build()
    messages: Arrivals[Any] = Arrivals()

    async def on_message(message: Any) -> None:
        messages.append(message)

    async with client(mcp, "legacy", message_handler=on_message) as c:
        await c.call_tool("add_tool_now", {})
        assert "late" in [t.name for t in (await c.list_tools()).tools]
        assert (await c.call_tool("late", {})).content[0].text == "new"
        mcp.remove_tool("late")
        assert "late" not in [t.name for t in (await c.list_tools()).tools]
        await messages.reach(1)
    assert ToolListChangedNotification() in messages
