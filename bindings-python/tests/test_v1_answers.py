"""Answers of servers ported from the official 1.x SDK (`FastMCP`, the low-level
decorators) where 1.x's differ from 2.x's, over stdio with the official client: a low-level
list handler that takes the request (pagination by `request.params.cursor`), a
`read_resource` handler reading pydantic's `AnyUrl`, a tool whose elicitation the client
does not support (a tool error under 1.x, the client's JSON-RPC error under 2.x), and a
resource or prompt that raises (1.x: code 0 with the cause). The 2.x answers are compared
with the official 2.x server's (the `mcp` package of this venv); the 1.x answers are
asserted as `mcp` 1.30.0 gives them (checked by `scripts/port-check.py --suite examples
--ref v1.x`), and compared with that package's own server when `FERRYMCP_V1_PYTHON` names
an interpreter that has it (`mcp<2`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEERS = Path(__file__).resolve().parent / "peers"
V1_PYTHON = os.environ.get("FERRYMCP_V1_PYTHON")
needs_v1 = pytest.mark.skipif(not V1_PYTHON, reason="FERRYMCP_V1_PYTHON (an interpreter with mcp<2) is not set")


def _error(failed: pytest.ExceptionInfo[Any]) -> dict[str, Any]:
    return {"code": failed.value.error.code, "message": failed.value.error.message}


async def pages(python: str, sdk: str) -> dict[str, Any]:
    params = mcp.StdioServerParameters(command=python, args=[str(PEERS / "v1_pages_server.py"), sdk])
    seen: dict[str, Any] = {"tools": [], "resources": []}
    async with mcp.Client(params, mode="legacy") as c:
        cursor = None
        while True:
            page = await c.list_tools(cursor=cursor)
            seen["tools"].append([t.name for t in page.tools])
            if (cursor := page.next_cursor) is None:
                break
        while True:
            listed = await c.list_resources(cursor=cursor)
            seen["resources"].append([r.uri for r in listed.resources])
            if (cursor := listed.next_cursor) is None:
                break
        seen["prompts"] = [p.name for p in (await c.list_prompts()).prompts]
        read = await c.read_resource("file:///notes/1.txt")
        seen["read"] = read.model_dump(exclude_none=True)["contents"]
    return seen


async def test_v1_lowlevel_list_handlers_take_the_request_and_read_gets_an_any_url() -> None:
    seen = await pages(sys.executable, "ferrymcp")
    assert seen == {
        "tools": [["tool_0", "tool_1"], ["tool_2", "tool_3"], ["tool_4"]],
        "resources": [["file:///notes/0.txt", "file:///notes/1.txt"], ["file:///notes/2.txt"]],
        "prompts": ["greet"],
        "read": [{"uri": "file:///notes/1.txt", "mime_type": "text/plain", "text": "AnyUrl file /notes/1.txt"}],
    }


@needs_v1
async def test_v1_lowlevel_answers_as_the_official_1x_server() -> None:
    assert V1_PYTHON is not None
    assert await pages(sys.executable, "ferrymcp") == await pages(V1_PYTHON, "official")


async def failures(python: str, sdk: str, api: str, mode: str = "legacy") -> dict[str, Any]:
    params = mcp.StdioServerParameters(command=python, args=[str(PEERS / "v1_answers_server.py"), sdk, api])
    seen: dict[str, Any] = {}
    async with mcp.Client(params, mode=mode) as c:
        listed = {tool.name: tool for tool in (await c.list_tools()).tools}
        seen["summary"] = listed["summary"].output_schema
        for name in ("crash", "refuse"):
            called = await c.call_tool(name, {})
            seen[name] = {"isError": called.is_error, "text": [b.model_dump()["text"] for b in called.content]}
        try:
            called = await c.call_tool("pay", {"amount": 1.5})
            seen["pay"] = {"isError": called.is_error, "content": [b.model_dump() for b in called.content]}
        except mcp.MCPError as error:
            seen["pay"] = {"code": error.error.code, "message": error.error.message}
        for uri in ("config://broken", "items://x", "unknown://nothing"):
            with pytest.raises(mcp.MCPError) as failed:
                await c.read_resource(uri)
            seen[uri] = _error(failed)
        with pytest.raises(mcp.MCPError) as failed:
            await c.get_prompt("review", {"path": "a.txt"})
        seen["review"] = _error(failed)
    return seen


V1_ANSWERS = {
    # 1.x sends a crash's text; 2.x keeps it on the server (asserted below).
    "crash": {"isError": True, "text": ["Error executing tool crash: 'internal detail'"]},
    "refuse": {"isError": True, "text": ["Error executing tool refuse: no such account"]},
    # 1.x's `FastMCP` makes a model of a TypedDict's fields: no `description` from its docstring.
    "summary": {
        "properties": {"city": {"title": "City", "type": "string"}, "temp_c": {"title": "Temp C", "type": "number"}},
        "required": ["city", "temp_c"],
        "title": "Summary",
        "type": "object",
    },
    "pay": {
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": "Error executing tool pay: Elicitation not supported",
                "annotations": None,
                "meta": None,
            }
        ],
    },
    "config://broken": {"code": 0, "message": "Error reading resource config://broken: disk gone"},
    "items://x": {
        "code": 0,
        "message": "Error creating resource from template: Error creating resource from template: no item x",
    },
    "unknown://nothing": {"code": 0, "message": "Unknown resource: unknown://nothing"},
    "review": {"code": 0, "message": "Error rendering prompt review: no file a.txt"},
}


async def test_fastmcp_answers_failures_as_1x() -> None:
    assert await failures(sys.executable, "ferrymcp", "fastmcp") == V1_ANSWERS


@needs_v1
async def test_fastmcp_failures_answer_as_the_official_1x_server() -> None:
    assert V1_PYTHON is not None
    assert await failures(V1_PYTHON, "official", "fastmcp") == V1_ANSWERS


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_mcpserver_answers_failures_as_the_official_2x_server(mode: str) -> None:
    ours = await failures(sys.executable, "ferrymcp", "mcpserver", mode)
    assert ours == await failures(sys.executable, "official", "mcpserver", mode)
    if mode == "legacy":  # 2.x: the client's error is the call's answer, a failed read -32603 without its cause
        assert ours["pay"] == {"code": -32600, "message": "Elicitation not supported"}
        assert ours["config://broken"] == {"code": -32603, "message": "Error reading resource config://broken"}
        assert ours["review"] == {"code": 0, "message": "Error rendering prompt review"}
        assert ours["summary"]["description"] == "A weather summary."
    assert ours["crash"] == {"isError": True, "text": ["Error executing tool crash"]}
    assert ours["refuse"] == {"isError": True, "text": ["Error executing tool refuse: no such account"]}
