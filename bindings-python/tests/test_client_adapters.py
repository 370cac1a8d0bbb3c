"""The parts of `Client` that need no engine: targets, options and callback adapters."""

import asyncio
from typing import Any

import pytest
from arrivals import Arrivals

from ferrymcp import Client, McpError, StdioServerParameters
from ferrymcp.client import ClientRequestContext, _command
from ferrymcp.types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestFormParams,
    ElicitResult,
    ErrorData,
    Implementation,
    ListRootsResult,
    LoggingMessageNotificationParams,
    Root,
    TextContent,
    ToolListChangedNotification,
)


def test_targets() -> None:
    assert _command("python -m server --flag 'two words'") == (
        "python",
        ["-m", "server", "--flag", "two words"],
        None,
        None,
    )
    assert _command(["uv", "run", "srv.py"]) == ("uv", ["run", "srv.py"], None, None)
    params = StdioServerParameters(command="node", args=["s.js"], env={"A": "1"}, cwd="/tmp")
    assert _command(params) == ("node", ["s.js"], {"A": "1"}, "/tmp")
    with pytest.raises(TypeError):
        _command(42)


def test_official_stdio_parameters_are_accepted() -> None:
    mcp = pytest.importorskip("mcp")
    params = mcp.StdioServerParameters(command="python", args=["x.py"])
    assert _command(params)[:2] == ("python", ["x.py"])


def test_options_carry_identity_mode_and_log_level() -> None:
    client = Client("x", client_info=Implementation(name="me", version="9"), mode="legacy", log_level="debug")
    assert client._options() == {
        "era": "legacy",
        "cache": {"partition": "", "target_id": None, "default_ttl_ms": 0, "share_public": False},
        "info": {"name": "me", "version": "9"},
        "log_level": "debug",
    }


def test_callbacks_keep_the_official_signatures() -> None:
    seen: list[Any] = []

    async def sampling(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        seen.append(params)
        return CreateMessageResult(role="assistant", content=TextContent(text="hi"), model="m")

    async def elicitation(context: ClientRequestContext, params: Any) -> ElicitResult:
        seen.append(params)
        return ElicitResult(action="decline")

    async def roots(context: ClientRequestContext) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri="file:///w")])

    client = Client("x", sampling_callback=sampling, elicitation_callback=elicitation, list_roots_callback=roots)
    callbacks = client._callbacks()
    assert set(callbacks) == {"notification", "sampling", "elicitation", "roots"}
    reply = asyncio.run(
        callbacks["sampling"](
            {"messages": [{"role": "user", "content": {"type": "text", "text": "q"}}], "maxTokens": 9}
        )
    )
    assert reply == {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
    assert asyncio.run(callbacks["elicitation"]({"message": "m", "requestedSchema": {}})) == {"action": "decline"}
    assert isinstance(seen[1], ElicitRequestFormParams)
    assert asyncio.run(callbacks["roots"]({})) == {"roots": [{"uri": "file:///w"}]}


def test_error_data_from_a_callback_becomes_the_json_rpc_error() -> None:
    async def sampling(context: Any, params: Any) -> ErrorData:
        return ErrorData(code=-1, message="no model")

    callback = Client("x", sampling_callback=sampling)._callbacks()["sampling"]
    with pytest.raises(McpError, match="no model") as raised:
        asyncio.run(callback({"messages": [], "maxTokens": 1}))
    assert raised.value.code == -1


def test_notifications_reach_logging_callback_and_message_handler_on_the_loop() -> None:
    logs: Arrivals[Any] = Arrivals()
    messages: Arrivals[Any] = Arrivals()

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        logs.append(params)

    async def on_message(message: Any) -> None:
        messages.append(message)

    async def go() -> None:
        client = Client("x", logging_callback=on_log, message_handler=on_message)
        client._loop = asyncio.get_running_loop()
        notify = client._callbacks()["notification"]
        notify("notifications/message", {"level": "info", "data": "hello"})
        notify("notifications/tools/list_changed", None)
        notify("notifications/custom", {"x": 1})
        await messages.reach(3)
        await logs.reach(1)

    asyncio.run(go())
    assert logs == [LoggingMessageNotificationParams(level="info", data="hello")]
    assert [type(m).__name__ for m in messages] == [
        "LoggingMessageNotification",
        "ToolListChangedNotification",
        "Notification",
    ]
    assert messages[1] == ToolListChangedNotification()
    assert messages[2].method == "notifications/custom"


def test_using_a_client_outside_its_context_fails_clearly() -> None:
    with pytest.raises(RuntimeError, match="async context manager"):
        _ = Client("x").server_capabilities
