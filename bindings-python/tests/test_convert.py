"""Return values become the results the official SDK sends.

Tool results are compared with the official SDK's own conversion
(`func_metadata(fn).convert_result(value)`, PyPI `mcp` 2.3.0) for the same function
and value; resource and prompt results with the official server's `read_resource` and
`get_prompt`. Normalised only where immaterial: the official models always write
`isError: false` and `resultType: "complete"`, which ferrymcp leaves to the engine.
"""

import asyncio
import base64
import dataclasses
import datetime
import enum
from typing import Any

import pytest
from typing_extensions import TypedDict

import ferrymcp
from ferrymcp import _schema
from ferrymcp._convert import completion_result, prompt_result, resource_result, tool_result
from ferrymcp._signature import read_signature
from ferrymcp.server._tools import CONTENT_TYPES
from ferrymcp.types import CallToolResult, Completion, ImageContent, TextContent

PNG = b"\x89PNG\r\n\x1a\n"


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int
    y: float = 0.0


class Movie(TypedDict):
    title: str
    year: int


UNANNOTATED = object()
"""A case whose function has no return annotation."""


class Plain:
    a: int = 1

    def __init__(self) -> None:
        self.a = 7
        self.hidden = "no"


def returning(annotation: Any) -> Any:
    def tool() -> None: ...

    tool.__annotations__["return"] = annotation
    return tool


CASES: list[tuple[str, Any, Any]] = [
    ("str", str, "hello"),
    ("int", int, 5),
    ("float-from-int", float, 5),
    ("bool", bool, True),
    ("none", None, None),
    ("list", list[int], [1, 2, 3]),
    ("nested-list", list[list[int]], [[1, 2], [3]]),
    ("dict", dict[str, int], {"a": 1, "é": 2}),
    ("bare-dict", dict, {"a": [1, 2]}),
    ("tuple", tuple[int, str], (1, "x")),
    ("optional-none", int | None, None),
    ("dataclass", Point, Point(1, 2.5)),
    ("typed-dict", Movie, {"title": "Up", "year": 2009}),
    ("typed-dict-extra-key", Movie, {"title": "Up", "year": 2009, "extra": True}),
    ("list-of-dataclasses", list[Point], [Point(1), Point(2)]),
    ("class-with-hints", Plain, Plain()),
    ("enum", Color, Color.RED),
    ("datetime", datetime.datetime, datetime.datetime(2024, 1, 2, 3, 4, 5)),
    ("unannotated-dict", UNANNOTATED, {"k": "v"}),
    ("unannotated-str-list", UNANNOTATED, ["a", "b"]),
    ("unannotated-mixed-list", UNANNOTATED, ["a", 1, {"b": None}]),
]


def _official_result(fn: Any, value: Any) -> dict[str, Any]:
    from mcp.server.mcpserver.utilities.func_metadata import func_metadata

    result = func_metadata(fn).convert_result(value)
    wire = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    wire.pop("resultType", None)
    if wire.get("isError") is False:
        del wire["isError"]
    return wire


def _our_result(fn: Any, value: Any) -> dict[str, Any]:
    output = _schema.output(read_signature(fn), None, CONTENT_TYPES)
    return tool_result(value, output)


@pytest.mark.parametrize(("annotation", "value"), [(a, v) for _, a, v in CASES], ids=[c[0] for c in CASES])
def test_tool_results_match_the_official_sdk(annotation: Any, value: Any) -> None:
    pytest.importorskip("mcp.server.mcpserver")
    fn = returning(annotation) if annotation is not UNANNOTATED else (lambda: None)
    assert _our_result(fn, value) == _official_result(fn, value)


def test_content_values_become_blocks() -> None:
    fn = returning(list)
    image = ferrymcp.Image(data=PNG)
    result = _our_result(fn, ["text", image, TextContent(text="block"), ferrymcp.Audio(data=b"RIFF", format="mpeg")])
    assert result["content"] == [
        {"type": "text", "text": "text"},
        {"type": "image", "data": base64.b64encode(PNG).decode(), "mimeType": "image/png"},
        {"type": "text", "text": "block"},
        {"type": "audio", "data": base64.b64encode(b"RIFF").decode(), "mimeType": "audio/mpeg"},
    ]


def test_content_annotations_give_no_output_schema_and_match_the_official_sdk() -> None:
    pytest.importorskip("mcp.server.mcpserver")
    import mcp.types as official_types

    def ours() -> ImageContent: ...

    def theirs() -> official_types.ImageContent: ...

    assert _schema.output(read_signature(ours), None, CONTENT_TYPES) is None
    ours_value = ImageContent(data="AAAA", mime_type="image/png")
    their_value = official_types.ImageContent(type="image", data="AAAA", mime_type="image/png")
    assert _our_result(ours, ours_value) == _official_result(theirs, their_value)


def test_a_full_call_tool_result_passes_through() -> None:
    result = CallToolResult(content=[TextContent(text="x")], structured_content={"a": 1}, is_error=True)
    assert tool_result(result, None) == {
        "content": [{"type": "text", "text": "x"}],
        "structuredContent": {"a": 1},
        "isError": True,
    }


def test_official_sdk_objects_are_accepted_too() -> None:
    types = pytest.importorskip("mcp.types")
    value = [types.TextContent(type="text", text="a"), types.CallToolResult(content=[])]
    assert tool_result(value[0], None) == {"content": [{"type": "text", "text": "a"}]}
    assert tool_result(value[1], None)["content"] == []


@pytest.mark.parametrize(
    ("value", "mime", "expected"),
    [
        ("text", None, {"uri": "r://x", "mimeType": "text/plain", "text": "text"}),
        (b"\x00\x01", None, {"uri": "r://x", "mimeType": "text/plain", "blob": "AAE="}),
        (b"\x00\x01", "image/png", {"uri": "r://x", "mimeType": "image/png", "blob": "AAE="}),
        ({"a": 1}, "application/json", {"uri": "r://x", "mimeType": "application/json", "text": '{\n  "a": 1\n}'}),
    ],
)
def test_resource_results(value: Any, mime: Any, expected: dict[str, Any]) -> None:
    assert resource_result(value, "r://x", mime) == {"contents": [expected]}


def test_resource_results_match_the_official_sdk() -> None:
    official = pytest.importorskip("mcp.server.mcpserver")

    def register(server: Any) -> None:
        @server.resource("data://text")
        def text() -> str:
            return "hello"

        @server.resource("data://bytes", mime_type="application/octet-stream")
        def raw() -> bytes:
            return PNG

        @server.resource("data://json")
        def structured() -> dict[str, Any]:
            return {"a": [1, 2], "b": None}

    theirs, ours = official.MCPServer("p"), ferrymcp.MCPServer("p")
    register(theirs)
    register(ours)
    for uri in ("data://text", "data://bytes", "data://json"):
        contents = asyncio.run(theirs.read_resource(uri))
        (item,) = list(contents)
        entry = ours._registry.get("resource", uri)
        assert entry is not None
        mine = entry.handler(uri, {}, None)["contents"][0]
        if isinstance(item.content, bytes):
            assert base64.b64decode(mine["blob"]) == item.content
        else:
            assert mine["text"] == item.content
        assert mine["mimeType"] == (item.mime_type or "text/plain")


def test_prompt_results_match_the_official_sdk() -> None:
    official = pytest.importorskip("mcp.server.mcpserver")

    def register(server: Any, module: Any) -> None:
        @server.prompt()
        def one(topic: str) -> str:
            """One message."""
            return f"Tell me about {topic}"

        @server.prompt()
        def several(count: int) -> list[Any]:
            return [
                module.UserMessage(f"count is {count + 1}"),
                module.AssistantMessage("noted"),
                {"role": "user", "content": {"type": "text", "text": "dict message"}},
                "bare string",
            ]

    from mcp.server.mcpserver.prompts import base as official_messages

    import ferrymcp.server.prompts as our_messages

    theirs, ours = official.MCPServer("p"), ferrymcp.MCPServer("p")
    register(theirs, official_messages)
    register(ours, our_messages)
    for name, arguments in (("one", {"topic": "owls"}), ("several", {"count": "2"})):
        their_result = asyncio.run(theirs.get_prompt(name, arguments))
        their_wire = their_result.model_dump(by_alias=True, exclude_none=True, mode="json")
        their_wire.pop("resultType", None)
        our_wire = asyncio.run(ours.get_prompt(name, arguments)).model_dump(by_alias=True, exclude_none=True)
        assert our_wire == their_wire


def test_prompt_messages_from_plain_values() -> None:
    result = prompt_result([ferrymcp.Image(data=PNG), {"role": "assistant", "content": "ok"}], "d")
    assert result["description"] == "d"
    assert result["messages"][0]["role"] == "user"
    assert result["messages"][0]["content"]["type"] == "image"
    assert result["messages"][1] == {"role": "assistant", "content": {"type": "text", "text": "ok"}}


def test_completion_results() -> None:
    assert completion_result(None) == {"completion": {"values": []}}
    assert completion_result(["a", "b"]) == {"completion": {"values": ["a", "b"]}}
    assert completion_result(Completion(values=["x"], total=1, has_more=False)) == {
        "completion": {"values": ["x"], "total": 1, "hasMore": False}
    }
