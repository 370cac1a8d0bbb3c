"""`MCPServer`: declarations, their mistakes, and what the engine then serves.

Mistakes in a server's own definition fail when it is declared, naming the function and
the problem; what is declared, before the server starts or while it runs, is served by
the engine to a ferrymcp `Client` connected in memory.
"""

import asyncio
import logging
from typing import Any

import pytest

from ferrymcp import Client, Context, FastMCP, McpError, MCPServer, ToolAnnotations
from ferrymcp.server.fastmcp import FastMCP as V1FastMCP
from ferrymcp.server.mcpserver import ResourceSecurity
from ferrymcp.server.mcpserver.exceptions import ToolError
from ferrymcp.shared.uri_template import InvalidUriTemplate
from ferrymcp.types import Icon, Implementation, PromptReference, TextResourceContents


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_fastmcp_is_mcpserver_with_the_v1_signature_on_both_paths() -> None:
    assert FastMCP is V1FastMCP and issubclass(FastMCP, MCPServer)
    server = FastMCP("Demo", version="1.2.3", instructions="Be nice")
    assert (server.name, server.version, server.instructions) == ("Demo", "1.2.3", "Be nice")
    # 1.x's second positional parameter is the instructions (2.x's is the title).
    assert (FastMCP("Demo", "Be brief").instructions, MCPServer("Demo", "Brief").title) == ("Be brief", "Brief")


def test_tool_definitions_from_functions_and_options() -> None:
    server = MCPServer("s")

    @server.tool(
        title="Adder", annotations=ToolAnnotations(read_only_hint=True), icons=[Icon(src="data:,x")], meta={"v": 1}
    )
    def add(a: int, b: int = 0) -> int:
        """Adds."""
        return a + b

    (tool,) = run(server.list_tools())
    assert (tool.name, tool.title, tool.description) == ("add", "Adder", "Adds.")
    assert tool.input_schema["required"] == ["a"]
    assert tool.output_schema is not None and tool.annotations == ToolAnnotations(read_only_hint=True)
    assert tool.icons == [Icon(src="data:,x")] and tool.meta == {"v": 1}


def test_calling_tools_in_process() -> None:
    server = MCPServer("s")

    @server.tool()
    def divide(a: float, b: float) -> float:
        return a / b

    @server.tool()
    async def fail() -> str:
        raise McpError(-32001, "custom", {"x": 1})

    ok = run(server.call_tool("divide", {"a": 1, "b": 4}))
    assert ok.structured_content == {"result": 0.25} and ok.content[0].text == "0.25"
    broken = run(server.call_tool("divide", {"a": 1, "b": 0}))
    # A crash: its text stays on the server, as the official 2.x `UnexpectedToolError`.
    assert broken.is_error and broken.content[0].text == "Error executing tool divide"
    with pytest.raises(McpError):
        run(server.call_tool("fail", {}))


async def test_in_process_calls_answer_as_over_the_wire() -> None:
    """`call_tool` in process takes the engine's `tools/call` path: each call answers what
    the same call from a client answers, to the byte."""
    server = MCPServer("s")

    @server.tool()
    def typed(n: int) -> int:
        return n * 2

    @server.tool()
    def lying() -> dict[str, int]:
        return {"n": "not a number"}  # type: ignore[dict-item]

    @server.tool()
    async def raising() -> str:
        raise RuntimeError("broken on purpose")

    calls = [
        ("typed", {"n": 3}),
        ("typed", {"n": "three"}),
        ("typed", {}),
        ("lying", {}),
        ("raising", {}),
    ]
    in_process = [(await server.call_tool(name, args)).model_dump(by_alias=True) for name, args in calls]
    async with Client(server, mode="legacy") as client:
        wire = [(await client.call_tool(name, args)).model_dump(by_alias=True) for name, args in calls]
    assert in_process == wire
    assert in_process[0]["structuredContent"] == {"result": 6}
    assert [r["isError"] for r in in_process] == [False, True, True, True, True]
    with pytest.raises(ToolError, match="Unknown tool: missing"):
        await server.call_tool("missing", {})


def test_decorator_misuse_and_duplicate_names(caplog: pytest.LogCaptureFixture) -> None:
    server = MCPServer("s")
    with pytest.raises(TypeError, match="Did you forget to call it"):
        server.tool(lambda: 1)  # type: ignore[arg-type]

    @server.tool()
    def echo(text: str) -> str:
        return text

    def other(text: str) -> str:
        return text

    # As the official server: the first declaration stays, the second is dropped with a
    # warning (none with warn_on_duplicate_tools=False).
    server.add_tool(other, name="echo")
    assert "Tool already exists: echo" in caplog.messages
    assert [r.name for r in caplog.records] == ["ferrymcp.server.mcpserver.tools.tool_manager"]
    assert server._registry.get("tool", "echo").fn is echo  # type: ignore[union-attr]
    caplog.clear()
    quiet = MCPServer("q", warn_on_duplicate_tools=False)
    quiet.add_tool(echo)
    quiet.add_tool(other, name="echo")
    assert caplog.text == "" and quiet._registry.get("tool", "echo").fn is echo  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="provide a name for lambda"):
        server.add_tool(lambda: 1)
    server.add_tool(lambda: 1, name="one")


def test_parameters_starting_with_underscore_are_refused() -> None:
    def f(_hidden: int) -> None: ...

    with pytest.raises(ValueError, match="'_hidden' cannot start with '_'"):
        MCPServer("s").add_tool(f)


def test_resource_template_mistakes_fail_at_registration() -> None:
    server = MCPServer("s")
    with pytest.raises(
        ValueError, match=r"Mismatch between URI parameters \{'id'\} and function parameters \{'name'\}"
    ):

        @server.resource("users://{id}")
        def user(name: str) -> str:
            return name

    with pytest.raises(ValueError, match=r"query parameter\(s\) \['limit'\] have no default"):

        @server.resource("search://{q}{?limit}")
        def search(q: str, limit: int) -> str:
            return q

    with pytest.raises(ValueError, match="no URI template variables, but the handler declares parameters"):

        @server.resource("static://x")
        def static(x: str) -> str:
            return x

    # A template that does not parse fails when the decorator is made, with its position.
    with pytest.raises(InvalidUriTemplate, match=r"^Unclosed expression at position 9$") as refused:
        server.resource("broken://{x")
    assert (refused.value.template, refused.value.position) == ("broken://{x", 9)

    with pytest.raises(InvalidUriTemplate, match="adjacent with no literal separator"):
        server.resource("manuals://{+path}{ext}")


async def test_resources_and_templates_read_through_the_engine() -> None:
    server = MCPServer("s")

    @server.resource("users://{user_id}/profile", mime_type="application/json")
    def profile(user_id: int) -> dict[str, Any]:
        return {"id": user_id, "kind": type(user_id).__name__}

    @server.resource("logo://png", mime_type="image/png")
    async def logo() -> bytes:
        return b"\x89PNG"

    @server.resource("info://{kind}")
    async def info(kind: str, ctx: Context) -> str:
        return f"{kind} for {ctx.client_id}"

    assert [t.uri_template for t in await server.list_resource_templates()] == [
        "users://{user_id}/profile",
        "info://{kind}",
    ]
    assert [r.uri for r in await server.list_resources()] == ["logo://png"]
    async with Client(server, mode="legacy", client_info=Implementation(name="test-client", version="1")) as client:
        read = await client.read_resource("users://7/profile")
        assert read.contents == [
            TextResourceContents(
                uri="users://7/profile", mime_type="application/json", text='{\n  "id": 7,\n  "kind": "int"\n}'
            )
        ]
        assert (await client.read_resource("logo://png")).contents[0].blob == "iVBORw=="
        assert (await client.read_resource("info://a")).contents[0].text == "a for test-client"
        assert [t.uri_template for t in (await client.list_resource_templates()).resource_templates] == [
            "users://{user_id}/profile",
            "info://{kind}",
        ]


def test_prompts_and_missing_arguments() -> None:
    server = MCPServer("s")

    @server.prompt(name="translate", description="Translate text")
    def translate(text: str, times: int = 1) -> str:
        return text * times

    (prompt,) = run(server.list_prompts())
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("text", True), ("times", False)]
    result = run(server.get_prompt("translate", {"text": "ab", "times": "2"}))
    assert result.messages[0].content.text == "abab" and result.description == "Translate text"
    with pytest.raises(McpError, match="Missing required arguments: \\['text'\\]") as raised:
        run(server.get_prompt("translate", {}))
    assert raised.value.code == -32602


async def test_the_completion_handler_gets_the_official_arguments() -> None:
    server = MCPServer("s")
    seen: list[Any] = []

    @server.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> list[str]:
        seen.append((ref, argument, context))
        return [argument.value + "1"]

    async with Client(server, mode="legacy") as client:
        done = await client.complete(PromptReference(name="p"), {"name": "a", "value": "x"}, {"b": "1"})
    assert done.completion.values == ["x1"]
    ref, argument, context = seen[0]
    assert (ref.name, argument.name, context.arguments) == ("p", "a", {"b": "1"})


async def test_registrations_reach_the_engine_in_order_and_after_it_starts() -> None:
    server = MCPServer("s")

    @server.tool()
    def first() -> None: ...

    @server.tool()
    def second() -> None: ...

    @server.resource("r://x")
    def res() -> str:
        return ""

    @server.prompt()
    def prompt() -> str:
        return ""

    async with Client(server, mode="legacy") as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["first", "second"]
        assert [r.uri for r in (await client.list_resources()).resources] == ["r://x"]
        assert [p.name for p in (await client.list_prompts()).prompts] == ["prompt"]

        @server.tool()
        def later() -> str:
            return "late"

        server.remove_tool("first")
        server.remove_prompt("prompt")
        server.remove_resource("r://x")
        assert [t.name for t in (await client.list_tools()).tools] == ["second", "later"]
        assert (await client.call_tool("later", {})).content[0].text == "late"
        assert (await client.list_resources()).resources == []
        assert (await client.list_prompts()).prompts == []
        gone = await client.call_tool("first", {})
        assert gone.is_error and gone.content[0].text == "Unknown tool: first"
    assert [t.name for t in await server.list_tools()] == ["second", "later"]
    with pytest.raises(ValueError, match="Unknown tool: first"):
        server.remove_tool("first")


def test_the_server_info_and_options_given_to_the_engine() -> None:
    from ferrymcp.server import CacheHint

    server = MCPServer(
        "n",
        title="T",
        version="2",
        website_url="https://x",
        cache_hints={"tools/list": CacheHint(1000, "public")},
        page_size=10,
    )
    assert server._server_info() == {"name": "n", "version": "2", "title": "T", "websiteUrl": "https://x"}
    assert server._options == {
        "features_up_front": ["tools", "resources", "prompts"],
        "tool_error_names_tool": True,
        "unknown_tool_is_result": True,
        "dialect": "python-sdk",
        "cache_hints": {"tools/list": {"ttl_ms": 1000, "scope": "public"}},
        "page_size": 10,
    }
    # The request-state audience travels with the default `RequestStateBoundary` on the
    # middleware list, read when serving starts: the server's name.
    assert server._state_options()["state_audience"] == "n"
    assert server._state_options()["seal_handler_state"] is True
    with pytest.raises(ValueError, match="cacheable methods"):
        MCPServer("n", cache_hints={"tools/call": CacheHint()})


def test_http_options_the_engine_lacks_are_refused_by_name() -> None:
    server = MCPServer("s")
    with pytest.raises(RuntimeError, match="streamable_http_app"):
        server.session_manager  # noqa: B018 - raises before an app exists
    with pytest.raises(NotImplementedError, match="HTTP\\+SSE"):
        server.sse_app()
    with pytest.raises(NotImplementedError, match="HTTP\\+SSE"):
        server.run("sse")
    # (`stateless_http` and `json_response` are served: test_http_modes.py.)
    for option, value in [("event_store", object())]:
        with pytest.raises(TypeError, match=option):
            server.run("streamable-http", **{option: value})
        with pytest.raises(TypeError, match=option):
            server.streamable_http_app(**{option: value})
    with pytest.raises(TypeError, match="no_such_option"):
        server.streamable_http_app(no_such_option=1)
    with pytest.raises(ValueError, match="Unknown transport"):
        server.run("carrier-pigeon")  # type: ignore[arg-type]


def test_explicit_input_schema_and_var_keyword_tools() -> None:
    server = MCPServer("s")
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}

    @server.tool(input_schema=schema)
    def raw(**arguments: Any) -> str:
        return ",".join(sorted(arguments))

    (tool,) = run(server.list_tools())
    assert tool.input_schema == schema
    assert run(server.call_tool("raw", {"a": "1"})).content[0].text == "a"
    # The engine checks the schema in process too, as for a client's call.
    refused = run(server.call_tool("raw", {"a": "1", "b": 2}))
    assert refused.is_error and "'b' was unexpected" in refused.content[0].text


@pytest.mark.parametrize(("mode", "not_found"), [("legacy", -32602), ("2026-07-28", -32602)])
async def test_template_variables_are_checked_as_the_official_sdk_checks_them(mode: str, not_found: int) -> None:
    server = MCPServer("s")

    @server.resource("files://{path}")
    def read_file(path: str) -> str:
        return path

    @server.resource("raw://{path}", security=ResourceSecurity(exempt_params=frozenset({"path"})))
    def raw(path: str) -> str:
        return path

    async with Client(server, mode=mode) as client:
        assert (await client.read_resource("files://a%2Fb")).contents[0].text == "a/b"
        # A refused variable is "not found", -32602 in both eras as the official SDK answers.
        for bad in ("..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "C:%5Cx", "a%00b"):
            with pytest.raises(McpError) as refused:
                await client.read_resource(f"files://{bad}")
            assert refused.value.code == not_found, bad
        assert (await client.read_resource("raw://..%2Fup")).contents[0].text == "../up"


def test_the_path_checks_agree_with_the_official_sdk() -> None:
    path_security = pytest.importorskip("mcp.shared.path_security")
    from ferrymcp.server._resource_security import contains_path_traversal, is_absolute_path

    for value in (
        "a/b",
        "../etc",
        "a/../../b",
        "a/../b",
        "1.0..2.0",
        "..",
        "./..",
        "a\\..\\..",
        "",
        "/x",
        "C:",
        "x:y",
        "\\srv",
    ):
        assert contains_path_traversal(value) == path_security.contains_path_traversal(value), value
        assert is_absolute_path(value) == path_security.is_absolute_path(value), value


def test_duplicates_are_logged_on_the_official_loggers(caplog: pytest.LogCaptureFixture) -> None:
    """The warnings of a dropped duplicate, word for word and on the official managers'
    loggers (`mcp.server.mcpserver.tools.tool_manager`, ...) in ferrymcp's namespace."""
    official = pytest.importorskip("mcp.server.mcpserver")

    def duplicates(server_class: type) -> list[tuple[str, str]]:
        caplog.clear()
        server = server_class("dup")
        for _ in range(2):
            server.tool(name="echo")(lambda text: text)
            server.resource("res://one", name="one")(lambda: "1")
            server.prompt(name="greet")(lambda: "hi")
        return [(record.name, record.getMessage()) for record in caplog.records]

    with caplog.at_level(logging.WARNING):
        theirs = duplicates(official.MCPServer)
        ours = duplicates(MCPServer)
    assert len(theirs) == 3
    assert ours == [("ferrymcp" + name.removeprefix("mcp"), message) for name, message in theirs]
