"""The caller-driven input loop of the official 2.x client: `session.call_tool(...,
allow_input_required=True)` (and `get_prompt`, `read_resource`) returns a 2026-07-28 server's
`InputRequiredResult` instead of answering it through the callbacks (core's
`Client::request_once`), and `input_responses=` with `request_state=` retry the round the
caller answered. Over stdio to a ferrymcp server process whose tool, prompt and resource
ask in rounds (`ctx.request_input`); the official client drives the same server the same way.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from ferrymcp import Client  # noqa: E402
from ferrymcp.types import (  # noqa: E402
    CallToolResult,
    ElicitRequest,
    ElicitResult,
    GetPromptResult,
    InputRequiredResult,
    ReadResourceResult,
)

SERVER = """
from pydantic import BaseModel
from ferrymcp.server.mcpserver import Context, MCPServer

class Region(BaseModel):
    region: str

mcp = MCPServer("provisioner")

ASK = {"message": "Which region?", "requestedSchema": Region.model_json_schema()}

@mcp.tool()
async def provision(name: str, ctx: Context) -> str:
    answer = await ctx.request_input("elicitation/create", ASK)
    return f"{name} in {answer['content']['region']}" if answer["action"] == "accept" else answer["action"]

@mcp.prompt()
async def briefing(ctx: Context) -> str:
    answer = await ctx.request_input("elicitation/create", ASK)
    return f"brief {answer['content']['region']}"

@mcp.resource("regions://{kind}")
async def chosen(kind: str, ctx: Context) -> str:
    answer = await ctx.request_input("elicitation/create", ASK)
    return f"{kind} {answer['content']['region']}"

mcp.run()
"""

EU = ElicitResult(action="accept", content={"region": "eu-west-1"})


async def never(context: Any, params: Any) -> Any:
    """The elicitation capability is declared (the server's elicit needs it), but a round
    returned to the caller never reaches the callback."""
    raise AssertionError("the callback was asked")


@pytest.fixture
def server(tmp_path: Path) -> list[str]:
    script = tmp_path / "provisioner.py"
    script.write_text(SERVER)
    return [sys.executable, str(script)]


def only_request(result: Any) -> tuple[str, ElicitRequest]:
    assert isinstance(result, InputRequiredResult), result
    assert result.input_requests is not None and result.request_state is not None
    ((key, request),) = result.input_requests.items()
    assert isinstance(request, ElicitRequest) and request.params.message == "Which region?"
    return key, request


async def test_a_tool_round_returned_and_answered_by_the_caller(server: list[str]) -> None:
    async with Client(server, mode="2026-07-28", elicitation_callback=never) as client:
        first = await client.session.call_tool("provision", {"name": "orders"}, allow_input_required=True)
        key, _ = only_request(first)
        assert isinstance(first, InputRequiredResult)
        done = await client.session.call_tool(
            "provision",
            {"name": "orders"},
            input_responses={key: EU},
            request_state=first.request_state,
            allow_input_required=True,
        )
        assert isinstance(done, CallToolResult) and done.content[0].text == "orders in eu-west-1"
        # `Client.call_tool` takes the answered round too (no callback is asked).
        again = await client.call_tool(
            "provision", {"name": "logs"}, input_responses={key: EU}, request_state=first.request_state
        )
        assert again.content[0].text == "logs in eu-west-1"


async def test_a_prompt_and_a_resource_round_returned_to_the_caller(server: list[str]) -> None:
    async with Client(server, mode="2026-07-28", elicitation_callback=never) as client:
        prompt = await client.session.get_prompt("briefing", allow_input_required=True)
        key, _ = only_request(prompt)
        assert isinstance(prompt, InputRequiredResult)
        done = await client.session.get_prompt(
            "briefing", input_responses={key: EU}, request_state=prompt.request_state, allow_input_required=True
        )
        assert isinstance(done, GetPromptResult) and done.messages[0].content.text == "brief eu-west-1"  # type: ignore[union-attr]
        resource = await client.session.read_resource("regions://chosen", allow_input_required=True)
        key, _ = only_request(resource)
        assert isinstance(resource, InputRequiredResult)
        read = await client.session.read_resource(
            "regions://chosen", input_responses={key: EU}, request_state=resource.request_state
        )
        assert isinstance(read, ReadResourceResult) and read.contents[0].text == "chosen eu-west-1"  # type: ignore[union-attr]


async def test_the_official_client_drives_the_same_loop(server: list[str]) -> None:
    mcp = pytest.importorskip("mcp")
    params = mcp.StdioServerParameters(command=server[0], args=server[1:])
    async with mcp.Client(params, mode="2026-07-28", elicitation_callback=never) as client:
        first = await client.session.call_tool("provision", {"name": "orders"}, allow_input_required=True)
        assert first.result_type == "input_required"
        ((key, _),) = first.input_requests.items()
        done = await client.session.call_tool(
            "provision",
            {"name": "orders"},
            input_responses={key: mcp.types.ElicitResult(action="accept", content={"region": "eu-west-1"})},
            request_state=first.request_state,
        )
        assert done.content[0].text == "orders in eu-west-1"
