"""The 2025-11-25 tool-naming rule as the official Python SDK reports it: the findings of
`validate_tool_name` and the lines logged when a tool is registered, compared with the
installed official package (`mcp`) on the same names."""

from __future__ import annotations

import logging

import pytest

mcp_validation = pytest.importorskip("mcp.shared.tool_name_validation")

from ferrymcp.server.mcpserver import MCPServer  # noqa: E402
from ferrymcp.shared import tool_name_validation  # noqa: E402

NAMES = [
    "get_user",
    "admin.tools.list",
    "a/b",
    "",
    "x" * 128,
    "x" * 129,
    "has space",
    "a,b",
    "-lead",
    "trail.",
    "ünï",
    "it's",
    "back\\slash",
    "tab\tname",
    "😀" * 128,
    "😀" * 129,
]


@pytest.mark.parametrize("name", NAMES)
def test_the_findings_are_the_official_ones(name: str) -> None:
    ours = tool_name_validation.validate_tool_name(name)
    theirs = mcp_validation.validate_tool_name(name)
    assert (ours.is_valid, ours.warnings) == (theirs.is_valid, theirs.warnings)
    assert tool_name_validation.SEP_986_URL == mcp_validation.SEP_986_URL


def test_registering_a_tool_logs_what_the_official_server_logs(caplog: pytest.LogCaptureFixture) -> None:
    from mcp.server.mcpserver import MCPServer as OfficialServer

    def logged(register: object, logger: str) -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=logger):
            register()  # type: ignore[operator]
        return [r.getMessage() for r in caplog.records if r.name == logger]

    for name in ["fine_name", "bad name!", ".dot"]:

        def tool() -> str:
            return "ok"

        theirs = logged(lambda n=name: OfficialServer("s").add_tool(tool, name=n), "mcp.shared.tool_name_validation")
        ours = logged(lambda n=name: MCPServer("s").add_tool(tool, name=n), "ferrymcp.shared.tool_name_validation")
        assert ours == theirs, name
    assert theirs, "the last name was warned about"


async def test_a_1x_low_level_server_logs_each_listed_name_on_every_listing(caplog: pytest.LogCaptureFixture) -> None:
    """1.x's `@server.list_tools()` checks every listed name, each time the tools are
    listed, and the tool is still listed (the official lines: the same function as above)."""
    from ferrymcp import Client
    from ferrymcp.server.lowlevel import Server
    from ferrymcp.types import Tool

    server = Server("lowlevel-1x")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [
            Tool(name="fine_name", input_schema={"type": "object"}),
            Tool(name="bad name!", input_schema={"type": "object"}),
        ]

    def expected() -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="mcp.shared.tool_name_validation"):
            mcp_validation.validate_and_warn_tool_name("bad name!")
        return [r.getMessage() for r in caplog.records if r.name == "mcp.shared.tool_name_validation"]

    official = expected()
    assert official, "the official check finds something to say about 'bad name!'"
    logger = "ferrymcp.shared.tool_name_validation"
    async with Client(server) as client:
        for _ in range(2):
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger=logger):
                names = [tool.name for tool in (await client.list_tools()).tools]
            assert names == ["fine_name", "bad name!"]
            assert [r.getMessage() for r in caplog.records if r.name == logger] == official
