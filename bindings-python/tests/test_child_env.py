"""The environment a ferrymcp client gives the server process it starts, over a real child
process: the official SDKs' default (core's short list of this process's variables) plus
what `env` sets, so a host's secrets do not reach the servers it starts. The same rule core
applies for the Node client (`bindings-node/test/child.test.mjs`) and the official SDK's
`stdio_client` applies.
"""

import json
import sys
from pathlib import Path

import pytest

from ferrymcp import Client, StdioServerParameters

pytest.importorskip("ferrymcp._native")

SERVER = """
import json, os
from ferrymcp.server import MCPServer

mcp = MCPServer("child-env")

@mcp.tool()
def env() -> str:
    return json.dumps(sorted(os.environ))

mcp.run()
"""


async def test_a_child_gets_the_default_environment_plus_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    monkeypatch.setenv("FERRYMCP_TEST_SECRET", "not for the child")
    params = StdioServerParameters(command=sys.executable, args=[str(script)], env={"GIVEN_TO_CHILD": "1"})
    async with Client(params) as client:
        result = await client.call_tool("env", {})
    names = json.loads(result.content[0].text)
    assert "GIVEN_TO_CHILD" in names
    assert "PATH" in names
    assert "FERRYMCP_TEST_SECRET" not in names


async def test_the_official_client_gives_the_same_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The official client, as the peer, starts the same server: the names agree."""
    mcp = pytest.importorskip("mcp")
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    monkeypatch.setenv("FERRYMCP_TEST_SECRET", "not for the child")
    seen = []
    for params, client_class in (
        (StdioServerParameters(command=sys.executable, args=[str(script)], env={"G": "1"}), Client),
        (mcp.StdioServerParameters(command=sys.executable, args=[str(script)], env={"G": "1"}), mcp.Client),
    ):
        async with client_class(params) as client:
            seen.append(json.loads((await client.call_tool("env", {})).content[0].text))
    assert seen[0] == seen[1]
