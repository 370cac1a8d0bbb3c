"""The official `mcp.server.mcpserver` package API on ferrymcp: a server written against it
(peers/surface_server.py) served over stdio by both SDKs to the official client, in both
eras, and the answers compared: dependency injection (`Resolve` graphs, `Elicit` asked
through the request's era, the unwrapped model or the whole outcome), a resource
function's `ResourceNotFoundError` (its own wording, the URI in `data`), `add_prompt` of a
`Prompt.from_function`, `add_resource` of a `TextResource`, and 1.x's positional
`FastMCP(name, instructions)`. Plus the import paths user code names (`exceptions`,
`prompts.base`, `resources`, `tools`, `utilities`, `ferrymcp.shared`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "surface_server.py"
MODES = ["legacy", "2026-07-28"]


def client(sdk: str, mode: str, answer: dict[str, Any] | None) -> Any:
    async def elicitation(context: Any, params: Any) -> Any:
        if answer is None:
            return mcp.types.ElicitResult(action="decline")
        return mcp.types.ElicitResult(action="accept", content=answer)

    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])
    return mcp.Client(params, mode=mode, elicitation_callback=elicitation)


async def session_answers(sdk: str, mode: str, answer: dict[str, Any] | None) -> dict[str, Any]:
    """What the official client sees of the peer server in one session."""
    seen: dict[str, Any] = {}
    async with client(sdk, mode, answer) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        seen["order_schema"] = tools["order_book"].input_schema
        for title in ["Dune", "Neuromancer"]:
            result = await c.call_tool("order_book", {"title": title})
            seen[f"order {title}"] = (result.is_error, [block.text for block in result.content])
        for title in ["Neuromancer", "Dune"]:  # asked; resolved without asking (an accepted outcome)
            outcome = await c.call_tool("ask_outcome", {"title": title})
            seen[f"outcome {title}"] = (outcome.is_error, [block.text for block in outcome.content])
        with pytest.raises(mcp.MCPError) as missing:
            await c.read_resource("books://Nothing")
        seen["missing"] = (missing.value.error.message, missing.value.error.data)
        seen["about"] = (await c.read_resource("books://about")).contents[0].text
        prompt = await c.get_prompt("review", {"code": "x = 1"})
        seen["prompt"] = [(m.role, m.content.text) for m in prompt.messages]
        seen["prompts"] = [(p.name, p.description) for p in (await c.list_prompts()).prompts]
    return seen


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("answer", [{"confirm": True}, None], ids=["accept", "decline"])
async def test_the_package_api_answers_as_the_official_server(mode: str, answer: dict[str, Any] | None) -> None:
    ours = await session_answers("ferrymcp", mode, answer)
    theirs = await session_answers("official", mode, answer)
    assert ours == theirs
    # The resolved parameters are not arguments the model supplies.
    assert set(ours["order_schema"]["properties"]) == {"title"}
    assert ours["order Dune"] == (False, ["Dune: 7 in stock, arrives tomorrow."])
    assert ours["outcome Dune"] == (False, ["Dune: accept"])
    assert ours["missing"] == ("No book titled 'Nothing' in the catalog.", {"uri": "books://Nothing"})


def test_v1_fastmcp_takes_instructions_second() -> None:
    from ferrymcp.server.fastmcp import FastMCP

    server = FastMCP("demo", "Be brief.", "https://example.com")
    assert (server.name, server.instructions, server.website_url, server.title) == (
        "demo",
        "Be brief.",
        "https://example.com",
        None,
    )


def test_the_official_import_paths_resolve() -> None:
    from ferrymcp.server.fastmcp.exceptions import ToolError as V1ToolError
    from ferrymcp.server.fastmcp.prompts.base import UserMessage as V1UserMessage
    from ferrymcp.server.mcpserver.exceptions import ResourceError, ToolError
    from ferrymcp.server.mcpserver.prompts.base import UserMessage
    from ferrymcp.server.mcpserver.utilities.logging import get_logger
    from ferrymcp.server.mcpserver.utilities.types import Image
    from ferrymcp.shared.exceptions import MCPError
    from ferrymcp.shared.metadata_utils import get_display_name
    from ferrymcp.shared.path_security import PathEscapeError, safe_join
    from ferrymcp.types import Tool, ToolAnnotations

    assert V1ToolError is ToolError and issubclass(ToolError, Exception) and issubclass(ResourceError, Exception)
    assert V1UserMessage is UserMessage and Image is not None and get_logger("x").name.endswith("x")
    assert MCPError.__name__ == "McpError"
    tool = Tool(name="n", input_schema={"type": "object"}, annotations=ToolAnnotations(title="Shown"))
    assert get_display_name(tool) == "Shown"
    with pytest.raises(PathEscapeError):
        safe_join("/srv/data", "../etc/passwd")
    assert safe_join("/srv/data", "a/b.txt") == Path("/srv/data/a/b.txt").resolve()


async def test_the_private_managers_code_in_the_wild_reaches_into_change_what_is_served() -> None:
    """`mcp._resource_manager._resources.pop(uri)` (the official story examples unregister a
    runtime resource this way), `_prompt_manager._prompts` and `_tool_manager._tools`: a
    change there is what a connected client is served next."""
    from ferrymcp import Client
    from ferrymcp.server.mcpserver import MCPServer

    server = MCPServer("managers")

    @server.resource("note:///1")
    def note() -> str:
        return "one"

    @server.resource("note:///{id}/text")
    def text(id: str) -> str:
        return id

    @server.prompt()
    def greet() -> str:
        return "hi"

    @server.tool()
    def echo(text: str) -> str:
        return text

    async with Client(server) as client:
        assert [str(r.uri) for r in (await client.list_resources()).resources] == ["note:///1"]
        assert list(server._resource_manager._templates) == ["note:///{id}/text"]
        assert [p.name for p in server._prompt_manager.list_prompts()] == ["greet"]
        assert server._resource_manager._resources.pop("note:///1", None) is not None
        assert server._resource_manager._resources.pop("note:///1", None) is None
        del server._prompt_manager._prompts["greet"]
        del server._tool_manager._tools["echo"]
        assert (await client.list_resources()).resources == []
        assert (await client.list_prompts()).prompts == []
        assert (await client.list_tools()).tools == []
        with pytest.raises(KeyError):
            del server._prompt_manager._prompts["greet"]


class _Station:
    def __init__(self, name: str) -> None:
        self.name = name


def _station(name: str) -> _Station:
    return _Station(name)


@pytest.mark.parametrize("sdk", ["ferrymcp", "official"])
def test_structured_output_of_a_type_without_a_schema_is_invalid_signature(sdk: str) -> None:
    """`structured_output=True` on a return type with no JSON Schema is refused when the
    tool is declared, with the official exception and wording, in both SDKs."""
    if sdk == "official":
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import InvalidSignature
    else:
        from ferrymcp.server.mcpserver import MCPServer
        from ferrymcp.server.mcpserver.exceptions import InvalidSignature

    server = MCPServer("weather")
    refused = r"^Function _station: return type .* is not serializable for structured output"
    with pytest.raises(InvalidSignature, match=refused):
        server.add_tool(_station, structured_output=True)
    server.add_tool(_station)  # without the flag: unstructured, as there


LOGGING_SCRIPT = """
import logging, sys
if sys.argv[1] == "official":
    from mcp.server.mcpserver import MCPServer
else:
    from ferrymcp.server.mcpserver import MCPServer
MCPServer("logs", log_level=sys.argv[2])
print(logging.getLevelName(logging.getLogger().level), len(logging.getLogger().handlers))
logging.getLogger("app").debug("a debug line")
logging.getLogger("app").warning("a warning line")
"""


@pytest.mark.parametrize("level", ["DEBUG", "WARNING"])
def test_log_level_configures_logging_as_the_official_constructor(level: str) -> None:
    """`MCPServer(log_level=...)` configures the root logger (`logging.basicConfig`, to
    stderr) in a fresh process, as the official constructor does."""
    import subprocess

    seen = {}
    for sdk in ("ferrymcp", "official"):
        done = subprocess.run(
            [sys.executable, "-c", LOGGING_SCRIPT, sdk, level], capture_output=True, text=True, check=True
        )
        seen[sdk] = (done.stdout, [line for line in done.stderr.splitlines() if "line" in line])
    assert seen["ferrymcp"][0] == seen["official"][0] == f"{level} 1\n"
    expected = ["a debug line", "a warning line"] if level == "DEBUG" else ["a warning line"]
    assert [line.strip() for line in seen["ferrymcp"][1]] == expected
    assert len(seen["official"][1]) == len(expected)


SESSION_VERBS_SERVER = """
import sys
if sys.argv[1] == "official":
    from mcp.server.mcpserver import Context, MCPServer
else:
    from ferrymcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("verbs")


@mcp.tool()
async def touch(ctx: Context) -> str:
    await ctx.session.send_resource_updated("stock://Dune")
    await ctx.session.send_resource_list_changed()
    await ctx.session.send_tool_list_changed()
    await ctx.session.send_prompt_list_changed()
    return "done"


mcp.run()
"""


async def verbs_answers(script: Path, sdk: str, mode: str) -> tuple[str, list[Any]]:
    received: list[Any] = []

    async def on_message(message: Any) -> None:
        if not isinstance(message, Exception):
            received.append(message.model_dump(by_alias=True, exclude_none=True))

    params = mcp.StdioServerParameters(command=sys.executable, args=[str(script), sdk])
    async with mcp.Client(params, mode=mode, message_handler=on_message) as c:
        result = await c.call_tool("touch", {})
    return result.content[0].text, received


@pytest.mark.parametrize("mode", MODES)
async def test_the_session_notification_verbs_send_on_the_session(mode: str, tmp_path: Path) -> None:
    """`ctx.session.send_resource_updated(...)` and the three `send_*_list_changed()` send
    their notification on the caller's session (no subscription needed), as the official
    ones do: a legacy client receives all four, in order. On a 2026-07-28 call (no session)
    the call succeeds; the official SDK drops the four where ferrymcp's engine sends
    session-less notifications on the request's own stream (`send_notification`'s rule)."""
    script = tmp_path / "verbs.py"
    script.write_text(SESSION_VERBS_SERVER)
    ours, theirs = await verbs_answers(script, "ferrymcp", mode), await verbs_answers(script, "official", mode)
    assert ours[0] == theirs[0] == "done"
    if mode == "legacy":
        assert ours == theirs
        assert [message["method"] for message in ours[1]] == [
            "notifications/resources/updated",
            "notifications/resources/list_changed",
            "notifications/tools/list_changed",
            "notifications/prompts/list_changed",
        ]
