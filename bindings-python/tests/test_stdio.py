"""ferrymcp servers as processes: the seed quick-start and the Python conformance fixture
served over stdio to the official SDK's client (PyPI `mcp` 2.3.0) and to ferrymcp's, in
both eras; and ferrymcp's client against an official server. How the processes start
and stop is test_process.py's.

Needs the native module, and `mcp` for the official peers.
"""

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import official_peer
from arrivals import Arrivals
from conftest import HERE, PYTHON_EVERYTHING
from seed_tools import seed_with_import

import ferrymcp

MODES = ["legacy", "2026-07-28", "auto"]
OFFICIAL_SERVER = HERE / "peers" / "official_server.py"


def official() -> Any:
    return pytest.importorskip("mcp")


async def official_sampling(context: Any, params: Any) -> Any:
    types = official().types
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="Paris"), model="m", stop_reason="endTurn"
    )


async def official_elicitation(context: Any, params: Any) -> Any:
    return official().types.ElicitResult(action="accept", content={"name": "Ada", "response": "yes", "ok": True})


def official_client(command: list[str], mode: str) -> Any:
    mcp = official()
    params = mcp.StdioServerParameters(command=command[0], args=command[1:])
    return mcp.Client(params, mode=mode, sampling_callback=official_sampling, elicitation_callback=official_elicitation)


# -- the seed quick-start ------------------------------------------------------------------


@pytest.fixture
def quickstart(tmp_path: Path) -> list[str]:
    return [sys.executable, str(seed_with_import("ferrymcp", tmp_path))]


@pytest.mark.parametrize("mode", MODES)
async def test_the_seed_serves_the_official_client(quickstart: list[str], mode: str) -> None:
    async with official_client(quickstart, mode) as c:
        assert [t.name for t in (await c.list_tools()).tools] == ["add"]
        assert (await c.call_tool("add", {"a": 2, "b": 40})).content[0].text == "42"
        assert (await c.read_resource("greeting://Ada")).contents[0].text == "Hello, Ada!"
        prompt = await c.get_prompt("translate", {"text": "cheese", "language": "Italian"})
        assert prompt.messages[0].content.text == "Translate this into Italian: cheese"


@pytest.mark.parametrize("mode", MODES)
async def test_the_seed_serves_the_ferrymcp_client(quickstart: list[str], mode: str) -> None:
    async with ferrymcp.Client(quickstart, mode=mode) as c:
        assert c.server_info is not None and c.server_info.name == "Quickstart"
        assert (await c.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
        assert (await c.read_resource("greeting://Bob")).contents[0].text == "Hello, Bob!"


# -- the conformance fixture ---------------------------------------------------------------

FIXTURE = [sys.executable, str(PYTHON_EVERYTHING), "--transport", "stdio"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_fixture_with_the_official_client(mode: str) -> None:
    async with official_client(FIXTURE, mode) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert names[0] == "test_simple_text" and "json_schema_2020_12_tool" in names
        assert (await c.call_tool("test_simple_text", {})).content[
            0
        ].text == "This is a simple text response for testing."
        assert (await c.call_tool("test_error_handling", {})).is_error is True
        sampled = (await c.call_tool("test_sampling", {"prompt": "capital?"})).content[0].text
        elicited = (await c.call_tool("test_elicitation", {"message": "ok?"})).content[0].text
        if c.protocol_version == "2026-07-28":
            # The session's requests have no back-channel there, as the official server's.
            assert "no back-channel" in sampled and "no back-channel" in elicited
        else:
            assert "Paris" in sampled and "action=accept" in elicited
        assert "123" in (await c.read_resource("test://template/123/data")).contents[0].text
        assert (await c.read_resource("test://static-binary")).contents[0].blob
        prompt = await c.get_prompt("test_prompt_with_arguments", {"arg1": "x", "arg2": "y"})
        assert "arg1='x'" in prompt.messages[0].content.text
        # An unknown tool is a result the model sees, as the official MCPServer answers.
        unknown = await c.call_tool("no_such_tool", {})
        assert unknown.is_error and unknown.content[0].text == "Unknown tool: no_such_tool"


async def test_the_fixture_multi_round_tools_through_the_official_client() -> None:
    async with official_client(FIXTURE, "2026-07-28") as c:
        assert (await c.call_tool("test_input_required_result_elicitation", {})).content[0].text == "Hello, Ada!"
        state = await c.call_tool("test_input_required_result_request_state", {})
        assert state.content[0].text == "state-ok: requestState validated"


@pytest.mark.parametrize("mode", MODES)
async def test_the_fixture_with_the_ferrymcp_client(mode: str) -> None:
    progress: Arrivals[float] = Arrivals()

    async def on_progress(value: float, total: Any, message: Any) -> None:
        progress.append(value)

    async def elicitation(context: Any, params: Any) -> Any:
        return ferrymcp.ElicitResult(action="accept", content={"name": "Ada"})

    async with ferrymcp.Client(FIXTURE, mode=mode, elicitation_callback=elicitation) as c:
        result = await c.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
        assert result.content[0].text != ""
        assert (await c.call_tool("test_input_required_result_elicitation", {})).content[0].text == "Hello, Ada!"
        await progress.reach(3)
    assert progress == [0, 50, 100]


# -- ferrymcp's client against an official server -----------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_the_ferrymcp_client_against_an_official_server(mode: str) -> None:
    official()
    command = [sys.executable, str(OFFICIAL_SERVER)]
    async with ferrymcp.Client(command, mode=mode, sampling_callback=official_peer.sampling) as c:
        await official_peer.exercise(c, mode)
