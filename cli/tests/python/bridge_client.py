"""Drives `ferrymcp bridge` and `ferrymcp gateway` with the official Python SDK's client.

Run by cli/tests/proxy.rs: `python bridge_client.py SERVER MODE [PREFIX]`. SERVER is the
bridge's or gateway's HTTP endpoint (an `http://` URL), or a JSON array, the command line
of a stdio server that the SDK launches itself (`["ferrymcp", "bridge", "--stdio", URL]`);
MODE `legacy` or `auto`, the latter 2026-07-28 against a modern upstream; PREFIX the
gateway's namespace of the upstream, e.g. `alpha__`. Lists the tools, calls one, one that
reports progress, one that asks for elicitation (answered here), and gets a prompt that
does not exist (the error's code is recorded); prints one JSON object with what it saw,
which the Rust test checks.
"""

import json
import sys

import anyio
import mcp
from mcp import types
from mcp.client.streamable_http import streamable_http_client


async def main(server: str, mode: str, prefix: str) -> None:
    progress: list[float] = []
    asked: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async def on_elicit(context, params):  # noqa: ANN001 (the SDK's callback signature)
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"response": "from python"})

    if server.startswith(("http://", "https://")):
        target = streamable_http_client(server)
    else:
        command = json.loads(server)
        target = mcp.StdioServerParameters(command=command[0], args=command[1:])
    async with mcp.Client(target, mode=mode, elicitation_callback=on_elicit) as client:
        tools = await client.list_tools()
        simple = await client.call_tool(prefix + "test_simple_text", {})
        progressed = await client.call_tool(prefix + "test_tool_with_progress", {}, progress_callback=on_progress)
        elicited = await client.call_tool(prefix + "test_elicitation", {"message": "Your answer?"})
        try:
            await client.get_prompt(prefix + "no_such_prompt")
            error = None
        except mcp.MCPError as e:
            error = e.code
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
                    "error": error,
                }
            )
        )


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
