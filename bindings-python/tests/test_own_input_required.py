"""A handler's own `InputRequiredResult` (the official SDK's manual multi-round API): the
tool or prompt returns it with its own `request_state`, and on the client's retry it reads
`ctx.input_responses` and `ctx.request_state` (the low-level `Server`: `params.input_responses`
and `params.request_state`). Over stdio to real server processes, as the official SDK's
documentation pages describe it:

- `MCPServer` seals the handler's state (bound to the server's name, its audience) and hands
  it back as the handler wrote it; a state minted by another server (another key, or the
  same keys under another name) is refused with the frozen `Invalid or expired requestState`;
- the low-level `Server` leaves the state to the application: it goes out and comes back as
  the handler wrote it;
- a result without `request_state` gets none (nothing of the engine's added);
- a legacy session, which has no `input_required` vocabulary, gets `Handler returned an
  invalid result`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

from ferrymcp import Client  # noqa: E402
from ferrymcp.exceptions import McpError  # noqa: E402
from ferrymcp.types import CallToolResult, ElicitResult, GetPromptResult, InputRequiredResult  # noqa: E402

KEY = "0123456789abcdef0123456789abcdef"

SERVER = """
import sys
from ferrymcp.server.mcpserver import Context, MCPServer, RequestStateSecurity
from ferrymcp.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

CONFIRM = ElicitRequest(
    params=ElicitRequestFormParams(
        message="Issue this refund?",
        requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    )
)
name, key = sys.argv[1], sys.argv[2]
if sys.argv[3:] == ["aesgcm"]:
    from ferrymcp.server.request_state import AESGCMRequestStateCodec

    security = RequestStateSecurity(codec=AESGCMRequestStateCodec([key]))
else:
    security = RequestStateSecurity(keys=[key])
mcp = MCPServer(name, request_state_security=security)
if sys.argv[3:] == ["unsealed"]:
    # Off the list, as on the official server: the handler's state goes out as written.
    from ferrymcp.server.request_state import RequestStateBoundary

    mcp.middleware[:] = [m for m in mcp.middleware if not isinstance(m, RequestStateBoundary)]


@mcp.tool()
async def refund(amount: int, ctx: Context) -> str | InputRequiredResult:
    if ctx.input_responses is None:
        return InputRequiredResult(input_requests={"ok": CONFIRM}, request_state=f"refund:{amount}")
    answer = ctx.input_responses.get("ok")
    if not isinstance(answer, ElicitResult) or answer.action != "accept":
        return f"cancelled ({ctx.request_state})"
    return f"refunded ${amount} ({ctx.request_state})"


@mcp.prompt()
async def briefing(ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("audience")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"audience": CONFIRM})
    return f"Write a briefing for {answer.content['audience']}."


mcp.run()
"""

LOWLEVEL = """
import sys
import anyio
from ferrymcp.server import Server
from ferrymcp.server.stdio import stdio_server
from ferrymcp.types import (
    CallToolResult, ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult, ListToolsResult,
    TextContent, Tool,
)

ASK = ElicitRequest(params=ElicitRequestFormParams(message="Region?", requested_schema={"type": "object"}))


async def list_tools(ctx, params):
    return ListToolsResult(tools=[Tool(name="provision", input_schema={"type": "object"})])


async def call_tool(ctx, params):
    answer = (params.input_responses or {}).get("region")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={"region": ASK}, request_state="provision-v1")
    text = f"{answer.content['region']} ({params.request_state})"
    return CallToolResult(content=[TextContent(type="text", text=text)])


server = Server("Provisioner", on_list_tools=list_tools, on_call_tool=call_tool)
if sys.argv[1:]:
    # The official one line that turns sealing on for the low-level server.
    from ferrymcp.server.request_state import RequestStateBoundary, RequestStateSecurity

    security = RequestStateSecurity(keys=[sys.argv[1]])
    server.middleware.append(RequestStateBoundary(security, default_audience=server.name))


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
"""


@pytest.fixture
def scripts(tmp_path: Path) -> tuple[Path, Path]:
    server, lowlevel = tmp_path / "billing.py", tmp_path / "lowlevel.py"
    server.write_text(SERVER)
    lowlevel.write_text(LOWLEVEL)
    return server, lowlevel


def command(script: Path, *args: str) -> list[str]:
    return [sys.executable, str(script), *args]


async def first_round(client: Client, amount: int) -> InputRequiredResult:
    first = await client.session.call_tool("refund", {"amount": amount}, allow_input_required=True)
    assert isinstance(first, InputRequiredResult), first
    assert first.request_state is not None
    # Sealed by the engine: the handler's text is not readable on the wire.
    assert first.request_state != f"refund:{amount}"
    return first


async def retry(client: Client, amount: int, state: str | None, answer: ElicitResult) -> Any:
    return await client.session.call_tool(
        "refund", {"amount": amount}, input_responses={"ok": answer}, request_state=state, allow_input_required=True
    )


OK = ElicitResult(action="accept", content={"ok": True})


async def test_a_tool_gets_its_own_state_and_the_answers_back(scripts: tuple[Path, Path]) -> None:
    server, _ = scripts
    async with Client(command(server, "billing", KEY), mode="2026-07-28") as client:
        first = await first_round(client, 120)
        done = await retry(client, 120, first.request_state, OK)
        assert isinstance(done, CallToolResult), done
        assert done.content[0].text == "refunded $120 (refund:120)"  # type: ignore[union-attr]
        declined = await retry(client, 120, first.request_state, ElicitResult(action="decline"))
        assert declined.content[0].text == "cancelled (refund:120)"


async def test_a_state_another_server_minted_is_refused(scripts: tuple[Path, Path]) -> None:
    server, _ = scripts
    async with (
        Client(command(server, "billing", KEY), mode="2026-07-28") as one,
        Client(command(server, "billing", KEY), mode="2026-07-28") as same,
        Client(command(server, "billing-2", KEY), mode="2026-07-28") as renamed,
        Client(command(server, "billing", KEY[::-1]), mode="2026-07-28") as rekeyed,
    ):
        first = await first_round(one, 120)
        # Same keys and name: another replica takes the retry.
        done = await retry(same, 120, first.request_state, OK)
        assert done.content[0].text == "refunded $120 (refund:120)"
        for other in (renamed, rekeyed):
            with pytest.raises(McpError) as refused:
                await retry(other, 120, first.request_state, OK)
            error = refused.value.error
            assert (error.code, error.message) == (-32602, "Invalid or expired requestState")
            assert error.data == {"reason": "invalid_request_state"}
        # Moved to another call (another amount is the same target, another tool is not).
        with pytest.raises(McpError, match="Invalid or expired requestState"):
            await one.session.call_tool("briefing", {}, input_responses={"ok": OK}, request_state=first.request_state)


async def test_a_prompt_result_without_state_carries_none(scripts: tuple[Path, Path]) -> None:
    server, _ = scripts

    async def audience(context: Any, params: Any) -> ElicitResult:
        return ElicitResult(action="accept", content={"audience": "the board"})

    async with Client(command(server, "billing", KEY), mode="2026-07-28", elicitation_callback=audience) as client:
        first = await client.session.get_prompt("briefing", allow_input_required=True)
        assert isinstance(first, InputRequiredResult), first
        assert first.request_state is None and first.input_requests is not None
        assert list(first.input_requests) == ["audience"]
        # The client's own loop answers it; the handler reads the answer.
        done = await client.get_prompt("briefing")
        assert isinstance(done, GetPromptResult)
        assert done.messages[0].content.text == "Write a briefing for the board."  # type: ignore[union-attr]


async def test_the_lowlevel_server_leaves_the_state_to_the_application(scripts: tuple[Path, Path]) -> None:
    _, lowlevel = scripts
    async with Client(command(lowlevel), mode="2026-07-28") as client:
        first = await client.session.call_tool("provision", {}, allow_input_required=True)
        assert isinstance(first, InputRequiredResult), first
        assert first.request_state == "provision-v1"
        region = ElicitResult(action="accept", content={"region": "eu-west-1"})
        # The state the application wrote, even one it never sent, reaches its handler.
        for state in ("provision-v1", "made-up"):
            done = await client.call_tool("provision", {}, input_responses={"region": region}, request_state=state)
            assert done.content[0].text == f"eu-west-1 ({state})"  # type: ignore[union-attr]


async def test_a_request_state_boundary_seals_the_lowlevel_servers_state(scripts: tuple[Path, Path]) -> None:
    _, lowlevel = scripts
    async with Client(command(lowlevel, KEY), mode="2026-07-28") as client:
        first = await client.session.call_tool("provision", {}, allow_input_required=True)
        assert isinstance(first, InputRequiredResult), first
        assert first.request_state is not None and "provision-v1" not in first.request_state
        region = ElicitResult(action="accept", content={"region": "eu-west-1"})
        done = await client.call_tool(
            "provision", {}, input_responses={"region": region}, request_state=first.request_state
        )
        assert done.content[0].text == "eu-west-1 (provision-v1)"  # type: ignore[union-attr]
        with pytest.raises(McpError) as refused:
            await client.call_tool("provision", {}, input_responses={"region": region}, request_state="made-up")
        assert refused.value.data == {"reason": "invalid_request_state"}
    # A replica given the same key (and so the same name, the audience) opens it.
    async with Client(command(lowlevel, KEY), mode="2026-07-28") as same:
        done = await same.call_tool(
            "provision", {}, input_responses={"region": region}, request_state=first.request_state
        )
        assert done.content[0].text == "eu-west-1 (provision-v1)"  # type: ignore[union-attr]


async def test_taking_the_boundary_off_leaves_the_state_unsealed(scripts: tuple[Path, Path]) -> None:
    server, _ = scripts
    async with Client(command(server, "billing", KEY, "unsealed"), mode="2026-07-28") as client:
        first = await client.session.call_tool("refund", {"amount": 120}, allow_input_required=True)
        assert isinstance(first, InputRequiredResult), first
        assert first.request_state == "refund:120"


async def test_the_aes_gcm_codec_encrypts_the_state(scripts: tuple[Path, Path]) -> None:
    pytest.importorskip("cryptography")
    server, _ = scripts
    async with Client(command(server, "billing", KEY, "aesgcm"), mode="2026-07-28") as client:
        first = await first_round(client, 120)
        assert first.request_state is not None and first.request_state.startswith("v1.")
        done = await retry(client, 120, first.request_state, OK)
        assert done.content[0].text == "refunded $120 (refund:120)"
        with pytest.raises(McpError) as refused:
            await retry(client, 120, first.request_state[:-2] + "AA", OK)
        assert refused.value.data == {"reason": "invalid_request_state"}


def test_the_aes_gcm_codec_reads_the_official_codecs_tokens() -> None:
    pytest.importorskip("cryptography")
    official = pytest.importorskip("mcp.server.request_state")
    from ferrymcp.server.request_state import AESGCMRequestStateCodec, InvalidRequestState

    ours, theirs = AESGCMRequestStateCodec([KEY]), official.AESGCMRequestStateCodec([KEY])
    assert theirs.unseal(ours.seal(b"payload")) == b"payload"
    assert ours.unseal(theirs.seal(b"payload")) == b"payload"
    with pytest.raises(InvalidRequestState):
        AESGCMRequestStateCodec(["another key of at least 32 bytes!!"]).unseal(ours.seal(b"payload"))
    with pytest.raises(ValueError):
        AESGCMRequestStateCodec(["short"])


async def test_a_legacy_session_has_no_vocabulary_for_it(scripts: tuple[Path, Path]) -> None:
    server, lowlevel = scripts
    for script in (command(server, "billing", KEY), command(lowlevel)):
        async with Client(script, mode="legacy") as client:
            with pytest.raises(McpError) as refused:
                await client.call_tool("refund" if len(script) > 2 else "provision", {"amount": 1})
            assert (refused.value.error.code, refused.value.error.message) == (
                -32603,
                "Handler returned an invalid result",
            )
