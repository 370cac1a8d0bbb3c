"""ferrymcp writes the tool, resource and prompt listings the official SDK writes.

The same functions (schema_battery.py, schema_battery_pydantic.py) are registered with
the official `MCPServer` (PyPI `mcp` 2.3.0) and with ferrymcp's, and the listings are
compared as wire JSON, exactly: `inputSchema`, `outputSchema`, names, descriptions,
MIME types and prompt arguments. The only normalisation is dict key order, which JSON
objects do not have (both sides are compared as parsed dicts).

Where ferrymcp deliberately differs, a test below says so: it accepts `typing.TypedDict`
parameters that the official SDK refuses below Python 3.12.
"""

import asyncio
import sys
import typing
from typing import Any

import pytest

official = pytest.importorskip("mcp.server.mcpserver")

import schema_battery  # noqa: E402
import schema_battery_pydantic  # noqa: E402

import ferrymcp  # noqa: E402


def _wire(item: Any) -> dict[str, Any]:
    return item.model_dump(by_alias=True, exclude_none=True, mode="json")


def _listings(functions: list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    theirs, ours = official.MCPServer("parity"), ferrymcp.MCPServer("parity")
    for fn in functions:
        theirs.add_tool(fn)
        ours.add_tool(fn)
    their_tools = {t.name: _wire(t) for t in asyncio.run(theirs.list_tools())}
    our_tools = {t.name: _wire(t) for t in asyncio.run(ours.list_tools())}
    return their_tools, our_tools


@pytest.mark.parametrize("fn", schema_battery.BATTERY, ids=lambda fn: fn.__name__)
def test_tool_schemas_match_the_official_sdk(fn: Any) -> None:
    theirs, ours = _listings([fn])
    assert ours == theirs


@pytest.mark.parametrize("fn", schema_battery_pydantic.BATTERY, ids=lambda fn: fn.__name__)
def test_pydantic_signatures_match_the_official_sdk(fn: Any) -> None:
    theirs, ours = _listings([fn])
    assert ours == theirs


def test_the_context_parameter_is_not_an_argument() -> None:
    def theirs_fn(x: int, ctx: official.Context) -> str: ...

    def ours_fn(x: int, ctx: ferrymcp.Context) -> str: ...

    def ours_generic(x: int, context: ferrymcp.Context[Any, Any]) -> str: ...

    theirs_fn.__name__ = ours_fn.__name__ = ours_generic.__name__ = "tool"
    their_server, our_server, generic_server = official.MCPServer("p"), ferrymcp.MCPServer("p"), ferrymcp.MCPServer("p")
    their_server.add_tool(theirs_fn)
    our_server.add_tool(ours_fn)
    generic_server.add_tool(ours_generic)
    (their_tool,) = asyncio.run(their_server.list_tools())
    (our_tool,) = asyncio.run(our_server.list_tools())
    (generic_tool,) = asyncio.run(generic_server.list_tools())
    assert _wire(our_tool) == _wire(their_tool) == _wire(generic_tool)


def test_explicit_names_titles_and_annotations_match() -> None:
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    options = {"name": "sum", "title": "Sum", "description": "Adds two numbers", "meta": {"k": 1}}
    their_server, our_server = official.MCPServer("p"), ferrymcp.MCPServer("p")
    their_server.add_tool(add, annotations=official_types().ToolAnnotations(read_only_hint=True), **options)
    our_server.add_tool(add, annotations=ferrymcp.ToolAnnotations(read_only_hint=True), **options)
    (their_tool,) = asyncio.run(their_server.list_tools())
    (our_tool,) = asyncio.run(our_server.list_tools())
    assert _wire(our_tool) == _wire(their_tool)


def test_structured_output_switches_match() -> None:
    def count() -> int: ...

    for structured in (True, False):
        their_server, our_server = official.MCPServer("p"), ferrymcp.MCPServer("p")
        their_server.add_tool(count, structured_output=structured)
        our_server.add_tool(count, structured_output=structured)
        assert _wire(asyncio.run(our_server.list_tools())[0]) == _wire(asyncio.run(their_server.list_tools())[0])


def test_resources_templates_and_prompts_list_as_the_official_sdk() -> None:
    def register(server: Any) -> None:
        @server.resource("config://app", title="App config", mime_type="application/json")
        def config() -> str:
            """The configuration."""
            return "{}"

        @server.resource("users://{user_id}/profile", name="profile", description="A profile")
        def profile(user_id: int) -> str:
            return str(user_id)

        @server.resource("search://{q}{?limit}")
        def search(q: str, limit: int = 10) -> str:
            return q

        @server.prompt(title="Review")
        def review(code: str, language: str = "python") -> str:
            """Review some code."""
            return code

        @server.prompt(name="plain")
        def plain_prompt() -> str:
            return "hi"

    theirs, ours = official.MCPServer("p"), ferrymcp.MCPServer("p")
    register(theirs)
    register(ours)
    for method in ("list_resources", "list_resource_templates", "list_prompts"):
        their_items = [_wire(x) for x in asyncio.run(getattr(theirs, method)())]
        our_items = [_wire(x) for x in asyncio.run(getattr(ours, method)())]
        assert our_items == their_items, method


def test_a_type_without_json_schema_fails_at_registration_naming_function_and_parameter() -> None:
    class Opaque:
        pass

    def handle(item: Opaque) -> None: ...

    with pytest.raises(ValueError, match=r"function 'handle': parameter 'item' has no JSON Schema"):
        ferrymcp.MCPServer("p").add_tool(handle)

    def call_me(callback: typing.Callable[[], int]) -> None: ...

    with pytest.raises(ValueError, match=r"'call_me'.*'callback'"):
        ferrymcp.MCPServer("p").add_tool(call_me)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the official SDK accepts typing.TypedDict from 3.12")
def test_stdlib_typeddict_parameters_are_accepted_where_the_official_sdk_refuses() -> None:
    class Movie(typing.TypedDict):
        title: str

    def rate(movie: Movie) -> None: ...

    with pytest.raises((TypeError, RuntimeError)):  # pydantic's PydanticUserError
        official.MCPServer("p").add_tool(rate)
    server = ferrymcp.MCPServer("p")
    server.add_tool(rate)
    (tool,) = asyncio.run(server.list_tools())
    assert tool.input_schema["$defs"]["Movie"]["required"] == ["title"]


def official_types() -> Any:
    import mcp.types

    return mcp.types
