"""`MCPServer` without the engine: declarations, their mistakes, and what it hands over.

Mistakes in a server's own definition fail when it is declared, naming the function and
the problem; the registry hands everything to the native server when it starts and
forwards later changes.
"""

import asyncio
from typing import Any

import pytest
from fakes import RecordingContext, RecordingServer
from ferrymcp import Context, FastMCP, McpError, MCPServer, ToolAnnotations
from ferrymcp.server.fastmcp import FastMCP as V1FastMCP
from ferrymcp.exceptions import ResourceNotFound
from ferrymcp.server.mcpserver import ResourceSecurity
from ferrymcp.types import Icon


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_fastmcp_is_mcpserver_on_both_paths() -> None:
    assert FastMCP is MCPServer is V1FastMCP
    server = FastMCP("Demo", version="1.2.3", instructions="Be nice")
    assert (server.name, server.version, server.instructions) == ("Demo", "1.2.3", "Be nice")


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
    assert broken.is_error and broken.content[0].text == "float division by zero"
    with pytest.raises(McpError):
        run(server.call_tool("fail", {}))


def test_decorator_misuse_and_duplicate_names() -> None:
    server = MCPServer("s")
    with pytest.raises(TypeError, match="Did you forget to call it"):
        server.tool(lambda: 1)  # type: ignore[arg-type]

    @server.tool()
    def echo(text: str) -> str:
        return text

    def other(text: str) -> str:
        return text

    with pytest.raises(ValueError, match=r"tool 'echo' is already registered .*echo.*other cannot register it again"):
        server.add_tool(other, name="echo")
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
        ValueError, match=r"URI template variables \['id'\] do not match the function parameters \['name'\]"
    ):

        @server.resource("users://{id}")
        def user(name: str) -> str:
            return name

    with pytest.raises(ValueError, match=r"query parameter\(s\) \['limit'\] have no default"):

        @server.resource("search://{q}{?limit}")
        def search(q: str, limit: int) -> str:
            return q

    with pytest.raises(ValueError, match="no URI template variables, but the function declares parameters"):

        @server.resource("static://x")
        def static(x: str) -> str:
            return x

    with pytest.raises(ValueError, match="unbalanced braces"):

        @server.resource("broken://{x")
        def broken(x: str) -> str:
            return x


def test_resources_and_templates_read_through_their_handlers() -> None:
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

    template = server._registry.get("template", "users://{user_id}/profile")
    assert template is not None and not template.is_async
    read = template.handler("users://7/profile", {"user_id": "7"}, None)
    assert read == {
        "contents": [
            {"uri": "users://7/profile", "mimeType": "application/json", "text": '{\n  "id": 7,\n  "kind": "int"\n}'}
        ]
    }
    static = server._registry.get("resource", "logo://png")
    assert static is not None and static.is_async
    assert run(static.handler("logo://png", {}, None))["contents"][0]["blob"] == "iVBORw=="
    ctx_template = server._registry.get("template", "info://{kind}")
    assert ctx_template is not None
    assert (
        run(ctx_template.handler("info://a", {"kind": "a"}, RecordingContext()))["contents"][0]["text"]
        == "a for test-client"
    )
    assert [t.uri_template for t in run(server.list_resource_templates())] == [
        "users://{user_id}/profile",
        "info://{kind}",
    ]
    assert [r.uri for r in run(server.list_resources())] == ["logo://png"]


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


def test_the_completion_handler_gets_the_official_arguments() -> None:
    server = MCPServer("s")
    seen: list[Any] = []

    @server.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> list[str]:
        seen.append((ref, argument, context))
        return [argument.value + "1"]

    recorder = RecordingServer()
    server._registry.attach(recorder)  # type: ignore[arg-type]
    ((method, handler),) = recorder.calls
    assert method == "set_completion_handler"
    params = {
        "ref": {"type": "ref/prompt", "name": "p"},
        "argument": {"name": "a", "value": "x"},
        "context": {"arguments": {"b": "1"}},
    }
    assert run(handler(params, None)) == {"completion": {"values": ["x1"]}}
    ref, argument, context = seen[0]
    assert (ref.name, argument.name, context.arguments) == ("p", "a", {"b": "1"})


def test_registrations_reach_the_native_server_in_order_and_after_it_starts() -> None:
    server = MCPServer("s")

    @server.tool()
    def first() -> None: ...

    @server.resource("r://x")
    def res() -> str:
        return ""

    @server.prompt()
    def prompt() -> str:
        return ""

    recorder = RecordingServer()
    server._registry.attach(recorder)  # type: ignore[arg-type]
    assert [(m, d["name"]) for m, d in recorder.calls] == [
        ("add_tool", "first"),
        ("add_resource", "res"),
        ("add_prompt", "prompt"),
    ]

    @server.tool()
    def later() -> None: ...

    server.remove_tool("first")
    server.remove_prompt("prompt")
    server.remove_resource("r://x")
    assert recorder.calls[3:] == [
        ("add_tool", recorder.calls[3][1]),
        ("remove_tool", "first"),
        ("remove_prompt", "prompt"),
        ("remove_resource", "r://x"),
    ]
    assert [t.name for t in run(server.list_tools())] == ["later"]
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
    assert server._options == {"cache_hints": {"tools/list": {"ttl_ms": 1000, "scope": "public"}}, "page_size": 10}
    with pytest.raises(ValueError, match="cacheable methods"):
        MCPServer("n", cache_hints={"tools/call": CacheHint()})


def test_http_transports_name_the_issue_that_brings_them() -> None:
    server = MCPServer("s")
    with pytest.raises(NotImplementedError, match="issue 6"):
        server.streamable_http_app()
    with pytest.raises(NotImplementedError, match="issue 6"):
        server.run("streamable-http")
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
    assert run(server.call_tool("raw", {"a": "1", "b": 2})).content[0].text == "a,b"


def test_template_variables_are_checked_as_the_official_sdk_checks_them() -> None:
    server = MCPServer("s")

    @server.resource("files://{path}")
    def read_file(path: str) -> str:
        return path

    @server.resource("raw://{path}", security=ResourceSecurity(exempt_params=frozenset({"path"})))
    def raw(path: str) -> str:
        return path

    checked = server._registry.get("template", "files://{path}")
    exempt = server._registry.get("template", "raw://{path}")
    assert checked is not None and exempt is not None
    assert checked.handler("files://a", {"path": "a/b"}, None)["contents"][0]["text"] == "a/b"
    # A refused variable is "not found"; the engine picks the era's code (-32002 or -32602).
    for bad in ("../etc/passwd", "/etc/passwd", "C:\\x", "a\x00b"):
        with pytest.raises(ResourceNotFound) as refused:
            checked.handler("files://x", {"path": bad}, RecordingContext(is_modern=False))
        assert refused.value.uri == "files://x"
    assert exempt.handler("raw://x", {"path": "../up"}, None)["contents"][0]["text"] == "../up"


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
