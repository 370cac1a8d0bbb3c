"""The rest of the `Client` API through the engine: list-change and resource-updated
notifications (with subscribe and unsubscribe), ping, the v1 camelCase names on the
results a client gets, what tools return as it reaches the client (each result checked
against the official schema), an `ErrorData` answer from a callback, `StdioServerParameters`
with environment and directory, and a server that dies during a call.

Needs the native module.
"""

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from raw_stdio import LEGACY, MODERN, check

from ferrymcp import (
    Audio,
    Client,
    ConnectionClosed,
    Context,
    Image,
    MCPDeprecationWarning,
    McpError,
    MCPServer,
    StdioServerParameters,
)
from ferrymcp.types import (
    AudioContent,
    CallToolResult,
    EmptyResult,
    ErrorData,
    ImageContent,
    PromptListChangedNotification,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ResourceUpdatedNotificationParams,
    SubscribeRequestParams,
    TextContent,
    ToolListChangedNotification,
    UnsubscribeRequestParams,
)


async def test_notifications_subscribe_and_unsubscribe() -> None:
    server = MCPServer("s")

    @server.resource("doc://a")
    def doc() -> str:
        return "a"

    async def subscription(ctx: Any, params: Any) -> EmptyResult:
        return EmptyResult()

    # As the official everything server serves subscriptions (an `MCPServer` without these
    # handlers answers -32601: test_capabilities.py).
    server._lowlevel_server.add_request_handler("resources/subscribe", SubscribeRequestParams, subscription)
    server._lowlevel_server.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, subscription)

    @server.tool()
    async def touch(ctx: Context) -> str:
        await ctx.notify_prompts_changed()
        await ctx.notify_resources_changed()
        await ctx.notify_resource_updated("doc://a")
        await ctx.notify_tools_changed()
        return "touched"

    messages: list[Any] = []
    tools_changed = asyncio.Event()

    async def on_message(message: Any) -> None:
        messages.append(message)
        if isinstance(message, ToolListChangedNotification):
            tools_changed.set()

    async def touch_and_wait() -> None:
        tools_changed.clear()
        await client.call_tool("touch", {})
        await asyncio.wait_for(tools_changed.wait(), 30)

    async with Client(server, mode="legacy", message_handler=on_message) as client:
        # Declared as the official `MCPServer` declares it with those handlers; the engine
        # keeps the session's subscriptions and sends the changes the application announces.
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.resources.subscribe is True
        removed = r"^resources/{}subscribe is removed as of 2026-07-28; use Client\.listen\(\) instead\.$"
        with pytest.warns(MCPDeprecationWarning, match=removed.format("")):  # as the official verb warns
            assert await client.subscribe_resource("doc://a") == EmptyResult()
        await touch_and_wait()
        with pytest.warns(MCPDeprecationWarning, match=removed.format("un")):
            assert await client.unsubscribe_resource("doc://a") == EmptyResult()
        await touch_and_wait()
    updated = ResourceUpdatedNotification(params=ResourceUpdatedNotificationParams(uri="doc://a"))
    once = [PromptListChangedNotification(), ResourceListChangedNotification(), updated, ToolListChangedNotification()]
    assert messages == once + [
        PromptListChangedNotification(),
        ResourceListChangedNotification(),
        ToolListChangedNotification(),
    ]


async def test_ping_listing_and_the_v1_names_of_results() -> None:
    server = MCPServer("s")

    @server.tool()
    def half(x: float) -> float:
        """Halves."""
        return x / 2

    @server.resource("doc://a", mime_type="text/markdown")
    def doc() -> str:
        return "# a"

    async with Client(server, mode="legacy") as client:
        assert await client.send_ping() == EmptyResult()
        (resource,) = (await client.list_resources()).resources
        assert (str(resource.uri), resource.mime_type, resource.mimeType) == (
            "doc://a",
            "text/markdown",
            "text/markdown",
        )
        (tool,) = (await client.list_tools()).tools
        assert tool.inputSchema is tool.input_schema and tool.input_schema["required"] == ["x"]
        result = await client.call_tool("half", {"x": 3})
        assert result.structuredContent == result.structured_content == {"result": 1.5}
        assert result.isError is result.is_error is False
        assert result == CallToolResult(content=[TextContent(text="1.5")], structured_content={"result": 1.5})
        assert repr(result) == (
            "CallToolResult(content=[TextContent(type='text', text='1.5')], structured_content={'result': 1.5}, "
            "is_error=False)"
        )


PNG = b"\x89PNG\r\n\x1a\n"
B64_PNG = "iVBORw0KGgo="


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_return_values_as_the_client_gets_them(mode: str) -> None:
    server = MCPServer("s")

    @server.tool()
    def number() -> int:
        return 7

    @server.tool()
    def mapping() -> dict[str, int]:
        return {"a": 1}

    @server.tool()
    def picture() -> Image:
        return Image(data=PNG)

    @server.tool()
    def mixed() -> list:  # type: ignore[type-arg]  # bare: under list[Any] both SDKs refuse an Image
        return ["text", Image(data=PNG), Audio(data=b"RIFF", format="wav"), TextContent(text="block")]

    @server.tool()
    def full() -> CallToolResult:
        return CallToolResult(content=[TextContent(text="custom")], structured_content={"k": 1}, is_error=True)

    expected = {
        "number": CallToolResult(content=[TextContent(text="7")], structured_content={"result": 7}),
        "mapping": CallToolResult(content=[TextContent(text='{\n  "a": 1\n}')], structured_content={"a": 1}),
        "picture": CallToolResult(content=[ImageContent(data=B64_PNG, mime_type="image/png")]),
        "mixed": CallToolResult(
            content=[
                TextContent(text="text"),
                ImageContent(data=B64_PNG, mime_type="image/png"),
                AudioContent(data="UklGRg==", mime_type="audio/wav"),
                TextContent(text="block"),
            ]
        ),
        "full": CallToolResult(content=[TextContent(text="custom")], structured_content={"k": 1}, is_error=True),
    }
    async with Client(server, mode=mode) as client:
        for name, result in expected.items():
            got = await client.call_tool(name, {})
            check(
                LEGACY if mode == "legacy" else MODERN,
                "CallToolResult",
                got.model_dump(by_alias=True, exclude_none=True),
            )
            assert got.model_copy(update={"meta": None, "result_type": None}) == result, name


async def test_an_error_data_answer_reaches_a_legacy_tool_as_mcp_error() -> None:
    server = MCPServer("s")

    @server.tool()
    async def ask(ctx: Context) -> str:
        try:
            params = {"messages": [], "maxTokens": 10}
            await (
                ctx.sample("q")
                if ctx.protocol_version != "2026-07-28"
                else ctx.request_input("sampling/createMessage", params)
            )
        except McpError as error:
            return f"{error.code}: {error.message} {error.data}"
        return "answered"

    async def sampling(context: Any, params: Any) -> ErrorData:
        return ErrorData(code=-1, message="no model", data={"why": "offline"})

    async with Client(server, mode="legacy", sampling_callback=sampling) as client:
        assert (await client.call_tool("ask", {})).content == [TextContent(text="-1: no model {'why': 'offline'}")]
    async with Client(server, mode="2026-07-28", sampling_callback=sampling) as client:
        # A modern round trip has no way to carry an error back: the client's call fails.
        with pytest.raises(McpError) as refused:
            await client.call_tool("ask", {})
        assert (refused.value.code, refused.value.message) == (-1, "no model")


ENV_SERVER = """
import os
from ferrymcp import MCPServer

mcp = MCPServer("env")


@mcp.tool()
def where() -> str:
    return os.environ["FERRY_TEST"] + " in " + os.getcwd()


@mcp.tool()
def die() -> str:
    os._exit(3)


mcp.run()
"""


async def test_stdio_server_parameters_with_env_and_cwd_and_a_server_that_dies(tmp_path: Path) -> None:
    script = tmp_path / "env_server.py"
    script.write_text(ENV_SERVER)
    workdir = tmp_path / "work"
    workdir.mkdir()
    params = StdioServerParameters(command=sys.executable, args=[str(script)], env={"FERRY_TEST": "set"}, cwd=workdir)
    async with Client(params) as client:
        assert (await client.call_tool("where", {})).content[0].text == f"set in {workdir}"
        with pytest.raises(ConnectionClosed):
            await client.call_tool("die", {})


ADD_SERVER = """
from ferrymcp import MCPServer

mcp = MCPServer("add")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


mcp.run()
"""


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_a_result_read_from_either_era_equals_one_built_without_result_type(mode: str, tmp_path: Path) -> None:
    """As the official models (whose `result_type` defaults to "complete"): a 2026-07-28
    answer says `resultType: "complete"`, an older one says nothing, and both equal the
    result a test builds without naming it; another result type does not."""
    script = tmp_path / "add_server.py"
    script.write_text(ADD_SERVER)
    async with Client(StdioServerParameters(command=sys.executable, args=[str(script)]), mode=mode) as client:
        got = await client.call_tool("add", {"a": 1, "b": 2})
    assert got.result_type == ("complete" if mode == MODERN else None)
    built = CallToolResult(content=[TextContent(text="3")], structured_content={"result": 3}, is_error=False)
    assert got.model_copy(update={"meta": None}) == built
    assert built == got.model_copy(update={"meta": None})
    assert got.model_copy(update={"meta": None, "result_type": "input_required"}) != built


async def test_a_client_is_entered_once(tmp_path: Path) -> None:
    """As the official `Client`: one `async with` per instance; entering again while
    connected, after the block ended, or after a failed connect is a RuntimeError."""
    script = tmp_path / "add_server.py"
    script.write_text(ADD_SERVER)
    client = Client(StdioServerParameters(command=sys.executable, args=[str(script)]))
    async with client:
        with pytest.raises(RuntimeError, match="cannot reenter"):
            await client.__aenter__()
        assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    with pytest.raises(RuntimeError, match="Client is already entered; cannot reenter"):
        await client.__aenter__()
    failed = Client(StdioServerParameters(command=sys.executable, args=["-c", "raise SystemExit(3)"]))
    with pytest.raises(Exception) as first:  # noqa: PT011  # whatever the failed connect raises
        await failed.__aenter__()
    assert not isinstance(first.value, RuntimeError) or "reenter" not in str(first.value)
    with pytest.raises(RuntimeError, match="cannot reenter"):
        await failed.__aenter__()


@pytest.mark.parametrize("mode", ["2025-06-18", "2024-11-05", "not-a-version"])
def test_a_mode_that_is_not_a_pin_is_refused_as_the_official_client_refuses_it(mode: str) -> None:
    import mcp

    import ferrymcp

    with pytest.raises(ValueError) as theirs:
        mcp.Client(mcp.server.MCPServer("s"), mode=mode)
    with pytest.raises(ValueError) as ours:
        ferrymcp.Client(ferrymcp.MCPServer("s"), mode=mode)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_roots_callback_may_give_pydantic_url_types(mode: str) -> None:
    """The official types' `uri` fields take pydantic's `FileUrl`; a callback's result with
    one crosses as its text (it failed with "cannot convert FileUrl to JSON" before)."""
    from pydantic import FileUrl

    import ferrymcp
    from ferrymcp.types import ListRootsResult, Root

    server = ferrymcp.MCPServer("roots")

    @server.tool()
    async def folders(ctx: ferrymcp.Context) -> str:
        if ctx.protocol_version == "2026-07-28":  # rounds are `request_input`'s there
            answer = await ctx.request_input("roots/list", {})
            return ",".join(root["uri"] for root in answer["roots"])
        return ",".join(str(root.uri) for root in (await ctx.session.list_roots()).roots)

    async def roots(context: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=FileUrl("file:///workspace/catalog"), name="catalog")])

    async with ferrymcp.Client(server, mode=mode, list_roots_callback=roots) as client:
        result = await client.call_tool("folders", {})
    assert result.content[0].text == "file:///workspace/catalog"  # type: ignore[union-attr]


async def test_a_callback_that_raises_is_logged_where_the_official_client_logs_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A raising logging callback or message handler (sync or async) is logged on logger
    `client` as the official session words it, a raising progress callback on its
    dispatcher's logger; the call they came with still completes."""
    import logging

    server = MCPServer("s")

    @server.tool()
    async def chatty(ctx: Context) -> str:
        await ctx.report_progress(1, 2)
        await ctx.info("hello")
        return "done"

    def on_log(params: Any) -> None:
        raise RuntimeError("log callback")

    async def on_message(message: Any) -> None:
        raise RuntimeError("message handler")

    def on_progress(progress: float, total: float | None, message: str | None) -> None:
        raise RuntimeError("progress callback")

    with caplog.at_level(logging.ERROR):
        async with Client(server, mode="legacy", logging_callback=on_log, message_handler=on_message) as client:
            result = await client.call_tool("chatty", {}, progress_callback=on_progress)
    assert result.content == [TextContent(type="text", text="done")]
    logged = sorted(
        (record.name, record.getMessage(), str(record.exc_info[1])) for record in caplog.records if record.exc_info
    )
    assert logged == [
        ("client", "notification callback for 'notifications/message' raised", "log callback"),
        ("client", "notification callback for 'notifications/message' raised", "message handler"),
        ("ferrymcp.shared.jsonrpc_dispatcher", "progress callback raised", "progress callback"),
    ]
