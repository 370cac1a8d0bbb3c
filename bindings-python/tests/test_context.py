"""`Context` spells the official SDK's methods and hands each to the native context."""

import asyncio
from typing import Any

import pytest
from fakes import RecordingContext
from ferrymcp import Context, MCPServer
from ferrymcp.context import find_context_parameter
from ferrymcp.elicitation import AcceptedElicitation, CancelledElicitation, DeclinedElicitation
from ferrymcp.types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_progress_and_logging() -> None:
    native = RecordingContext()
    ctx = Context(native, MCPServer("s"))

    async def go() -> None:
        await ctx.report_progress(1, 10, "one")
        await ctx.info("hello")
        await ctx.debug({"k": 1}, logger_name="db")
        await ctx.log("warning", "careful")
        await ctx.warning("w")
        await ctx.error("e")

    run(go())
    assert native.calls == [
        ("report_progress", (1, 10, "one")),
        ("log", ("info", "hello", None)),
        ("log", ("debug", {"k": 1}, "db")),
        ("log", ("warning", "careful", None)),
        ("log", ("warning", "w", None)),
        ("log", ("error", "e", None)),
    ]


def test_request_details() -> None:
    native = RecordingContext(request_id=42, progress_token=5)
    ctx = Context(native, MCPServer("s"), lifespan_context={"db": "x"})
    assert ctx.request_id == "42"
    assert ctx.client_id == "test-client"
    assert ctx.client_info is not None and ctx.client_info.version == "1.0"
    assert ctx.client_capabilities is not None and ctx.client_capabilities.sampling is not None
    assert ctx.request_context.meta.progress_token == 5 == ctx.request_context.meta.progressToken
    assert ctx.request_context.lifespan_context == {"db": "x"}
    assert ctx.session.client_params is not None and ctx.session.client_params.client_info.name == "test-client"
    assert ctx.protocol_version == "2025-11-25"
    assert ctx.is_cancelled() is False
    native.cancelled = True
    assert ctx.is_cancelled() is True


def test_outside_a_request() -> None:
    ctx: Context[Any, Any] = Context()
    assert ctx.protocol_version is None
    with pytest.raises(ValueError, match="outside of a request"):
        _ = ctx.request_id


def test_elicit_with_a_dict_schema() -> None:
    native = RecordingContext({"elicit": {"action": "accept", "content": {"name": "Ada"}}})
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    answer = run(Context(native).elicit("Who?", schema))
    assert answer == AcceptedElicitation(data={"name": "Ada"})
    assert native.calls == [("elicit", ({"mode": "form", "message": "Who?", "requestedSchema": schema},))]


def test_elicit_with_a_pydantic_model_renders_like_the_official_sdk() -> None:
    pydantic = pytest.importorskip("pydantic")
    elicitation = pytest.importorskip("mcp.server.elicitation")

    class Booking(pydantic.BaseModel):
        date: str
        guests: int = 2
        note: str | None = None

    native = RecordingContext({"elicit": {"action": "accept", "content": {"date": "today"}}})
    answer = run(Context(native).elicit("Book", Booking))
    assert isinstance(answer, AcceptedElicitation) and answer.data == Booking(date="today")
    sent = native.calls[0][1][0]["requestedSchema"]
    assert sent == elicitation.render_elicitation_schema(Booking)


@pytest.mark.parametrize(
    ("action", "expected"), [("decline", DeclinedElicitation()), ("cancel", CancelledElicitation())]
)
def test_elicit_refusals(action: str, expected: Any) -> None:
    native = RecordingContext({"elicit": {"action": action}})
    assert run(Context(native).elicit("?", {"type": "object", "properties": {}})) == expected


def test_elicit_url() -> None:
    native = RecordingContext({"elicit": {"action": "accept"}})
    answer = run(Context(native).elicit_url("Sign in", "https://example.com", "e1"))
    assert answer.action == "accept"
    assert native.calls[0][1][0] == {
        "mode": "url",
        "message": "Sign in",
        "url": "https://example.com",
        "elicitationId": "e1",
    }


def test_sampling_through_the_session_and_the_shortcut() -> None:
    reply = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}
    native = RecordingContext({"sample": reply})
    ctx = Context(native)
    messages = [SamplingMessage(role="user", content=TextContent(text="Capital?"))]
    result = run(ctx.session.create_message(messages, max_tokens=50, system_prompt="Be brief"))
    assert result == CreateMessageResult.model_validate(reply)
    assert native.calls[0][1][0] == {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Capital?"}}],
        "maxTokens": 50,
        "systemPrompt": "Be brief",
    }
    assert run(ctx.sample("Capital?", max_tokens=50)).content == TextContent(text="Paris")


def test_roots_resources_and_keyed_input() -> None:
    native = RecordingContext(
        {
            "list_roots": {"roots": [{"uri": "file:///a"}]},
            "read_resource": {
                "contents": [{"uri": "r://x", "blob": "AAE=", "mimeType": "image/png"}, {"uri": "r://x", "text": "t"}]
            },
            "input": {"action": "accept", "content": {}},
        }
    )
    ctx = Context(native)
    assert run(ctx.list_roots()) == ListRootsResult.model_validate({"roots": [{"uri": "file:///a"}]})
    contents = run(ctx.read_resource("r://x"))
    assert [c.content for c in contents] == [b"\x00\x01", "t"] and contents[0].mime_type == "image/png"
    run(ctx.request_input("elicitation/create", {"message": "m"}, key="user_name"))
    assert native.calls[-1] == ("input", ("user_name", "elicitation/create", {"message": "m"}))


def test_the_context_parameter_is_found_by_type() -> None:
    def plain(x: int, ctx: Context) -> None: ...

    def generic(x: int, context: Context[Any, Any]) -> None: ...

    def optional(x: int, c: Context | None = None) -> None: ...

    def none(x: int) -> None: ...

    assert [find_context_parameter(f) for f in (plain, generic, optional, none)] == ["ctx", "context", "c", None]


def test_a_tool_receives_the_context() -> None:
    server = MCPServer("s")
    seen: list[Any] = []

    @server.tool()
    async def probe(x: int, c: Context) -> str:
        seen.append(c)
        await c.report_progress(1)
        return str(x)

    entry = server._registry.get("tool", "probe")
    assert entry is not None and entry.is_async
    native = RecordingContext()
    result = run(entry.handler({"x": 3}, native))
    assert result["content"] == [{"type": "text", "text": "3"}]
    assert isinstance(seen[0], Context) and seen[0].mcp_server is server
    assert native.calls == [("report_progress", (1, None, None))]
