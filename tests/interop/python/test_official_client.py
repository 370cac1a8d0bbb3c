"""The official Python SDK's client (PyPI `mcp`, v2 `Client`) against ferrymcp's Rust
fixture over stdio, in the legacy era, the 2026-07-28 era, and with its own era probe."""

import pytest
from mcp import Client, StdioServerParameters, types

MODES = ["legacy", "2026-07-28", "auto"]


async def sampling(context, params):
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="Paris"),
        model="test-model",
        stop_reason="endTurn",
    )


async def elicitation(context, params):
    return types.ElicitResult(action="accept", content={"response": "yes", "name": "Ada"})


def client(everything: str, mode: str) -> Client:
    server = StdioServerParameters(command=everything, args=["--transport", "stdio"])
    return Client(server, mode=mode, sampling_callback=sampling, elicitation_callback=elicitation)


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_handshake_and_listing(everything, mode):
    async with client(everything, mode) as c:
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        assert c.protocol_version == expected
        if mode != "2026-07-28":  # adopting a version directly skips discover: no serverInfo yet
            assert c.server_info.name == "mcp-conformance-test-server"
        tools = (await c.list_tools()).tools
        names = [t.name for t in tools]
        assert names[0] == "test_simple_text" and "json_schema_2020_12_tool" in names
        assert len((await c.list_resources()).resources) >= 3
        assert (await c.list_resource_templates()).resource_templates[0].uri_template == "test://template/{id}/data"
        assert {p.name for p in (await c.list_prompts()).prompts} >= {
            "test_simple_prompt",
            "test_prompt_with_arguments",
        }


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_tools_resources_prompts(everything, mode):
    async with client(everything, mode) as c:
        result = await c.call_tool("test_simple_text", {})
        assert result.content[0].text == "This is a simple text response for testing."
        image = await c.call_tool("test_image_content", {})
        assert image.content[0].type == "image" and image.content[0].mime_type == "image/png"
        failing = await c.call_tool("test_error_handling", {})
        assert failing.is_error is True
        text = await c.read_resource("test://static-text")
        assert text.contents[0].text == "This is the content of the static text resource."
        blob = await c.read_resource("test://static-binary")
        assert blob.contents[0].blob
        templated = await c.read_resource("test://template/123/data")
        assert "123" in templated.contents[0].text
        prompt = await c.get_prompt("test_prompt_with_arguments", {"arg1": "x", "arg2": "y"})
        assert "arg1='x'" in prompt.messages[0].content.text
        done = await c.complete(
            types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"), {"name": "arg1", "value": "t"}
        )
        assert done.completion.values == []


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_server_asks_the_client(everything, mode):
    async with client(everything, mode) as c:
        sampled = await c.call_tool("test_sampling", {"prompt": "capital of France?"})
        assert "Paris" in sampled.content[0].text
        elicited = await c.call_tool("test_elicitation", {"message": "ok?"})
        assert "action=accept" in elicited.content[0].text


@pytest.mark.asyncio
async def test_mrtr_round_trips_through_the_official_client(everything):
    async with client(everything, "2026-07-28") as c:
        result = await c.call_tool("test_input_required_result_elicitation", {})
        assert result.content[0].text == "Hello, Ada!"


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_errors_cross_as_mcp_errors(everything, mode):
    from mcp import MCPError

    async with client(everything, mode) as c:
        with pytest.raises(MCPError) as missing:
            await c.read_resource("test://nope")
        assert missing.value.error.code == (-32002 if mode == "legacy" else -32602)
        with pytest.raises(MCPError) as unknown:
            await c.call_tool("no_such_tool", {})
        assert unknown.value.error.code == -32602
