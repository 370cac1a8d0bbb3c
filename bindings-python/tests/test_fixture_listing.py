"""The Python conformance fixture offers what the Rust one offers, in the same order.

Read without the engine: the tool, resource, template and prompt names of
tests/fixtures/python/everything.py are compared with those registered in
tests/fixtures/rust/everything.rs, so the two fixtures cannot drift apart silently.
"""

import asyncio
import re
import runpy
from typing import Any

import pytest
from conftest import PYTHON_EVERYTHING, RUST_EVERYTHING


@pytest.fixture(scope="module")
def fixture_server() -> Any:
    return runpy.run_path(str(PYTHON_EVERYTHING))["mcp"]


def _rust(pattern: str) -> list[str]:
    return re.findall(pattern, RUST_EVERYTHING.read_text())


def test_tools_match_the_rust_fixture(fixture_server: Any) -> None:
    rust_tools = _rust(r'tool\(\s*server,\s*"([^"]+)"')
    ours = [tool.name for tool in asyncio.run(fixture_server.list_tools())]
    assert ours == rust_tools
    assert all(tool.description for tool in asyncio.run(fixture_server.list_tools()))


def test_resources_templates_and_prompts_match_the_rust_fixture(fixture_server: Any) -> None:
    rust_resources = _rust(r'json!\(\{"uri": "([^"]+)"')
    rust_templates = _rust(r'"uriTemplate": "([^"]+)"')
    rust_prompts = _rust(r'prompt\(\s*server,\s*json!\(\{"name": "([^"]+)"')
    assert [r.uri for r in asyncio.run(fixture_server.list_resources())] == rust_resources
    assert [t.uri_template for t in asyncio.run(fixture_server.list_resource_templates())] == rust_templates
    assert [p.name for p in asyncio.run(fixture_server.list_prompts())] == rust_prompts


def test_the_raw_2020_12_schema_is_listed_verbatim(fixture_server: Any) -> None:
    tools = {tool.name: tool for tool in asyncio.run(fixture_server.list_tools())}
    schema = tools["json_schema_2020_12_tool"].input_schema
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$defs"]["address"]["$anchor"] == "addressDef" and schema["additionalProperties"] is False
    assert tools["test_sampling"].input_schema["properties"]["prompt"]["description"] == "The prompt to send to the LLM"


def test_content_tools_answer_as_the_reference(fixture_server: Any) -> None:
    call = lambda name: asyncio.run(fixture_server.call_tool(name, {})).model_dump(by_alias=True, exclude_none=True)  # noqa: E731
    assert call("test_simple_text")["content"] == [
        {"type": "text", "text": "This is a simple text response for testing."}
    ]
    assert call("test_audio_content")["content"][0]["mimeType"] == "audio/wav"
    mixed = call("test_multiple_content_types")["content"]
    assert [block["type"] for block in mixed] == ["text", "image", "resource"]
    assert mixed[2]["resource"]["text"] == '{"test":"data","value":123}'
    failing = call("test_error_handling")
    # A crash (a `RuntimeError`, as the official everything server raises): its text stays on
    # the server, as in `mcp` 2.3.
    assert failing["isError"] is True and failing["content"][0]["text"] == "Error executing tool test_error_handling"
