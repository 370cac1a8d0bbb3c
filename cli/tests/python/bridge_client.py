"""Drives a `ferrymcp bridge` HTTP endpoint with the official Python SDK's client.

Run by cli/tests/proxy.rs: `python bridge_client.py URL MODE [PREFIX]` (MODE `legacy` or
`auto`, the latter 2026-07-28 against a modern upstream; PREFIX the gateway's namespace of
the upstream, e.g. `alpha__`). Lists the tools, calls one, one that
reports progress, and one that asks for elicitation (answered here); prints one JSON
object with what it saw, which the Rust test checks.
"""

import json
import sys

import anyio
import mcp
from mcp import types
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, mode: str, prefix: str) -> None:
    progress: list[float] = []
    asked: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def on_elicit(context, params):  # noqa: ANN001 (the SDK's callback signature)
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"response": "from python"})

    async with mcp.Client(streamable_http_client(url), mode=mode, elicitation_callback=on_elicit) as client:
        tools = await client.list_tools()
        simple = await client.call_tool(prefix + "test_simple_text", {})
        progressed = await client.call_tool(prefix + "test_tool_with_progress", {}, progress_callback=on_progress)
        elicited = await client.call_tool(prefix + "test_elicitation", {"message": "Your answer?"})
        print(
            json.dumps(
                {
                    "server": client.server_info.name if client.server_info else None,
                    "protocol": client.protocol_version,
                    "tools": [tool.name for tool in tools.tools],
                    "simple": simple.content[0].text,
                    "progressed": progressed.is_error,
                    "progress": progress,
                    "asked": asked,
                    "elicited": elicited.content[0].text,
                }
            )
        )


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
