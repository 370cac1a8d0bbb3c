"""`ferrymcp.types`: the official names, both spellings, value equality, wire round trips.

Every example message of the MCP schema (tests/mcp-schema/examples, each revision) whose
type ferrymcp.types has must parse and serialise back to equal JSON.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from ferrymcp import types
from ferrymcp._wire import WireModel

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "mcp-schema" / "examples"


def _examples() -> list[tuple[str, Path]]:
    found = []
    for revision in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()) if EXAMPLES.is_dir() else []:
        for folder in sorted(p for p in revision.iterdir() if p.is_dir()):
            cls = getattr(types, folder.name, None)
            if isinstance(cls, type) and issubclass(cls, WireModel):
                found += [(folder.name, path) for path in sorted(folder.glob("*.json"))]
    return found


@pytest.mark.parametrize(
    ("name", "path"), _examples(), ids=lambda v: v if isinstance(v, str) else f"{v.parent.parent.name}/{v.name}"
)
def test_schema_examples_round_trip(name: str, path: Path) -> None:
    data = json.loads(path.read_text())
    parsed = getattr(types, name).model_validate(data)
    assert parsed.model_dump(by_alias=True, exclude_unset=True) == data
    assert (
        getattr(types, name).model_validate(json.loads(parsed.model_dump_json(exclude_unset=True, by_alias=True)))
        == parsed
    )


def test_there_are_examples_to_check() -> None:
    assert len(_examples()) > 50


def test_snake_case_and_camel_case_names() -> None:
    tool = types.Tool(name="t", inputSchema={"type": "object"}, output_schema={"type": "object"})
    assert tool.input_schema == tool.inputSchema == {"type": "object"}
    assert tool.outputSchema == {"type": "object"}
    result = types.CallToolResult.model_validate({"content": [], "isError": True, "structuredContent": {"a": 1}})
    assert result.is_error is True and result.isError is True
    assert result.structured_content == result.structuredContent == {"a": 1}
    assert types.TextContent(text="x", _meta={"k": 1}).meta == {"k": 1}


def test_nested_values_become_models() -> None:
    result = types.CallToolResult.model_validate(
        {
            "content": [
                {"type": "text", "text": "a"},
                {"type": "image", "data": "AA==", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "u", "blob": "AA=="}},
                {"type": "resource_link", "uri": "u", "name": "n"},
            ]
        }
    )
    kinds = [type(block) for block in result.content]
    assert kinds == [types.TextContent, types.ImageContent, types.EmbeddedResource, types.ResourceLink]
    assert isinstance(result.content[2].resource, types.BlobResourceContents)
    params = types.CreateMessageRequestParams.model_validate(
        {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}
    )
    assert params.messages[0].content == types.TextContent(text="hi")
    form = types.ElicitRequestFormParams.model_validate({"message": "m", "requestedSchema": {}})
    assert form.mode == "form"


def test_equality_repr_and_copy() -> None:
    a = types.TextContent(text="x")
    b = types.TextContent.model_validate({"type": "text", "text": "x"})
    assert a == b and a != types.TextContent(text="y") and a != types.ImageContent(data="x", mime_type="m")
    assert repr(a) == "TextContent(type='text', text='x')"
    c = a.model_copy(update={"text": "z"})
    assert c.text == "z" and a.text == "x"
    assert dict(a) == {"type": "text", "text": "x", "annotations": None, "meta": None}


def test_unknown_wire_keys_survive() -> None:
    data = {"name": "t", "inputSchema": {}, "x-vendor": {"k": 1}}
    tool = types.Tool.model_validate(data)
    assert tool.model_dump(by_alias=True, exclude_none=True) == data


def test_required_fields_are_enforced() -> None:
    """pydantic's `ValidationError` (a `ValueError`) as the official models raise it, which
    code written for them matches on (`"redirect_uris\\n  Field required"`)."""
    pydantic = pytest.importorskip("pydantic")
    official = pytest.importorskip("mcp.types")
    auth = pytest.importorskip("mcp.shared.auth")
    from ferrymcp.shared.auth import OAuthClientMetadata

    cases = [
        (types.TextContent, official.TextContent, {}),
        (OAuthClientMetadata, auth.OAuthClientMetadata, {"client_name": "Bookshop Agent"}),
    ]
    for ours, theirs, data in cases:
        with pytest.raises(pydantic.ValidationError) as ours_raised:
            ours.model_validate(data)
        with pytest.raises(pydantic.ValidationError) as theirs_raised:
            theirs.model_validate(data)
        assert isinstance(ours_raised.value, ValueError)
        assert ours_raised.value.title == theirs_raised.value.title
        seen = [(e["type"], e["loc"], e["msg"]) for e in ours_raised.value.errors()]
        assert seen == [(e["type"], e["loc"], e["msg"]) for e in theirs_raised.value.errors()]
    with pytest.raises(pydantic.ValidationError, match="redirect_uris\n  Field required"):
        OAuthClientMetadata.model_validate({"client_name": "Bookshop Agent"})


def test_dumps_are_what_the_official_models_accept_and_give() -> None:
    official = pytest.importorskip("mcp.types")
    ours = types.CallToolResult(
        content=[types.TextContent(text="a"), types.ImageContent(data="AA==", mime_type="image/png")],
        structured_content={"x": 1},
        is_error=True,
    )
    theirs = official.CallToolResult.model_validate(ours.model_dump(by_alias=True, exclude_none=True))
    their_wire = theirs.model_dump(by_alias=True, exclude_none=True)
    their_wire.pop("resultType")
    assert their_wire == ours.model_dump(by_alias=True, exclude_none=True)
    converted = types.CallToolResult.model_validate(theirs)
    assert converted.result_type == "complete"
    assert converted.model_copy(update={"result_type": None}) == ours


def test_every_official_name_used_by_servers_and_clients_exists() -> None:
    names = [
        "TextContent",
        "ImageContent",
        "AudioContent",
        "EmbeddedResource",
        "ResourceLink",
        "CallToolResult",
        "Tool",
        "ToolAnnotations",
        "PromptMessage",
        "TextResourceContents",
        "BlobResourceContents",
        "Resource",
        "ResourceTemplate",
        "Prompt",
        "PromptArgument",
        "GetPromptResult",
        "ReadResourceResult",
        "ListToolsResult",
        "Implementation",
        "ServerCapabilities",
        "ClientCapabilities",
        "CompleteResult",
        "Completion",
        "CreateMessageResult",
        "CreateMessageRequestParams",
        "ElicitResult",
        "ElicitRequestParams",
        "Root",
        "ListRootsResult",
        "SamplingMessage",
        "ErrorData",
        "LoggingMessageNotificationParams",
        "PromptReference",
        "ResourceTemplateReference",
        "Icon",
        "Annotations",
        "EmptyResult",
        "InitializeResult",
    ]
    assert [name for name in names if not hasattr(types, name)] == []


def test_official_models_validate_into_ours() -> None:
    official = pytest.importorskip("mcp.types")
    theirs: Any = official.Tool(name="t", input_schema={"type": "object"})
    assert types.Tool.model_validate(theirs) == types.Tool(name="t", input_schema={"type": "object"})


def test_fields_declared_with_pydantic_field_take_its_default_and_constraints() -> None:
    """A subclass written as for the official (pydantic) models: `Field(default=...)`,
    `Field(default_factory=...)` and constraints such as `ge=` / `le=` work as there."""
    pydantic = pytest.importorskip("pydantic")

    class SearchParams(types.RequestParams):
        query: str
        limit: int = pydantic.Field(default=10, ge=1, le=100)
        tags: list[str] = pydantic.Field(default_factory=list)
        note: str | None = pydantic.Field(default=None, description="free text")

    first, second = SearchParams(query="q"), SearchParams(query="q", limit=3)
    assert (first.limit, first.tags, second.limit) == (10, [], 3)
    assert first.tags is not SearchParams(query="q").tags
    assert second.model_dump(by_alias=True, exclude_none=True) == {"query": "q", "limit": 3, "tags": []}
    assert SearchParams.model_validate({"query": "q", "limit": "7"}).limit == 7  # pydantic's lax int
    with pytest.raises(pydantic.ValidationError, match="SearchParams.limit"):
        SearchParams(query="q", limit=101)
    with pytest.raises(pydantic.ValidationError, match="query\n  Field required"):
        SearchParams()
