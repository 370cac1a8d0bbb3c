"""What ferrymcp's client checks of the official SDK's server (peers/official_server.py),
over stdio (test_stdio.py) and Streamable HTTP (test_http_client.py) alike."""

from typing import Any

import ferrymcp


async def sampling(context: Any, params: Any) -> ferrymcp.CreateMessageResult:
    return ferrymcp.CreateMessageResult(role="assistant", content=ferrymcp.TextContent(text="Paris"), model="m")


async def exercise(c: ferrymcp.Client, mode: str) -> None:
    """Tools, sampling, a resource and a prompt; `c` was made with `sampling`."""
    assert c.server_info is not None and c.server_info.name == "official-peer"
    assert (await c.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
    if mode == "legacy":  # the official server samples only on a legacy session's back-channel
        assert (await c.call_tool("ask_model", {})).content[0].text == "Paris"
    assert (await c.read_resource("echo://hi")).contents[0].text == "hi"
    assert (await c.get_prompt("review", {"code": "x = 1"})).messages[0].content.text.endswith("x = 1")
