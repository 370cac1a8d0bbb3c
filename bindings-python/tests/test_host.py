"""The multi-server host: `ClientSessionGroup.connect_mcp_json` (core's client group) with
the official reference servers (npm, installed by scripts/test.sh under
tests/interop/node_modules) and ferrymcp servers as real processes, the LLM API shapes,
and the chatbot example run against its scripted model."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON_EVERYTHING, REPO

MODULES = REPO / "tests" / "interop" / "node_modules" / "@modelcontextprotocol"


def reference(name: str) -> str:
    path = MODULES / name / "dist" / "index.js"
    if not path.exists():
        if os.environ.get("CI"):
            raise AssertionError(f"CI must install {path} (scripts/test.sh)")
        pytest.skip(f"{path} is not installed (scripts/test.sh installs it)")
    return str(path)


def mcp_json(tmp_path: Path) -> dict[str, Any]:
    files = tmp_path / "files"
    files.mkdir()
    (files / "note.txt").write_text("the ferry leaves at noon")
    ferry = {"command": sys.executable, "args": [str(PYTHON_EVERYTHING)]}
    return {
        "mcpServers": {
            "everything": {"command": "node", "args": [reference("server-everything"), "stdio"]},
            "files": {"command": "node", "args": [reference("server-filesystem"), str(files)]},
            "memory": {
                "command": "node",
                "args": [reference("server-memory")],
                "env": {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")},
            },
            "ferry": ferry,
            "ferry2": {**ferry, "type": "stdio", "cwd": str(tmp_path)},
            "broken": {"command": "/nonexistent/ferrymcp-no-such-server"},
        }
    }


def text(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def test_an_mcp_json_group_connects_names_routes_and_reconnects(tmp_path: Path) -> None:
    from ferrymcp import ClientSessionGroup
    from ferrymcp.exceptions import ConnectionClosed, McpError

    config = mcp_json(tmp_path)
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(config))
    events: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    async with ClientSessionGroup() as group:
        statuses = await group.connect_mcp_json(
            path,
            connect_timeout=20,
            min_backoff=0.1,
            max_backoff=2,
            on_event=lambda name, event, _detail: events.put_nowait((name, event)),
        )
        states = {s["name"]: s["state"] for s in statuses}
        assert states == {
            "broken": "failed",
            "everything": "connected",
            "ferry": "connected",
            "ferry2": "connected",
            "files": "connected",
            "memory": "connected",
        }
        broken = next(s for s in statuses if s["name"] == "broken")
        assert "ferrymcp-no-such-server" in broken["error"]

        tools = group.tools
        assert {"echo", "read_text_file", "create_entities", "ferry__test_simple_text"} <= set(tools)
        assert "ferry2__test_simple_text" in tools and "test_simple_text" not in tools
        with pytest.raises(McpError, match="more than one server"):
            await group.call_tool("test_simple_text", {})

        echo = await group.call_tool("echo", {"message": "over the group"})
        assert "over the group" in text(echo)
        read = await group.call_tool("read_text_file", {"path": str(tmp_path / "files" / "note.txt")})
        assert text(read) == "the ferry leaves at noon"
        entity = {"name": "Ferry", "entityType": "boat", "observations": ["leaves at noon"]}
        await group.call_tool("create_entities", {"entities": [entity]})
        assert "leaves at noon" in text(await group.call_tool("read_graph", {}))
        simple = await group.call_tool("ferry__test_simple_text", {})
        with pytest.raises(ConnectionClosed, match="broken"):
            await group.call_tool("broken__anything", {})

        # A killed server comes back as a new process.
        ferry = next(s for s in group.mcp_json_servers() if s["name"] == "ferry")
        while not events.empty():
            events.get_nowait()
        os.kill(ferry["pid"], signal.SIGKILL)
        seen: list[str] = []
        while seen[-1:] != ["connected"]:
            name, event = await asyncio.wait_for(events.get(), 30)
            if name == "ferry":
                seen.append(event)
        assert seen == ["lost", "connected"]
        again = await group.call_tool("ferry__test_simple_text", {})
        assert text(again) == text(simple)
        ferry_now = next(s for s in group.mcp_json_servers() if s["name"] == "ferry")
        assert ferry_now["connections"] == 2 and ferry_now["pid"] != ferry["pid"]

        # Tools for the LLM APIs, under the group's names.
        chat = group.tools_for("openai-chat")
        assert {"type": "function", "function": {"name": "echo"}}.items() <= chat[0].items() or any(
            t["function"]["name"] == "echo" for t in chat
        )
        anthropic = {t["name"]: t for t in group.tools_for("anthropic")}
        assert anthropic["ferry2__test_simple_text"]["input_schema"]["type"] == "object"


async def test_results_in_the_llm_apis_shapes() -> None:
    from ferrymcp import ClientSessionGroup
    from ferrymcp.client.llm import tool_definitions, tool_result

    config = {"servers": {"everything": {"command": "node", "args": [reference("server-everything"), "stdio"]}}}
    async with ClientSessionGroup() as group:
        await group.connect_mcp_json(config)
        image = await group.call_tool("get-tiny-image", {})
        png = next(block for block in image.content if block.type == "image")
        chat = tool_result("openai-chat", "call_1", image)
        assert chat[0]["role"] == "tool" and chat[0]["tool_call_id"] == "call_1"
        assert chat[1]["content"][1]["image_url"]["url"] == f"data:image/png;base64,{png.data}"
        block = tool_result("anthropic", "toolu_1", image)[0]
        assert {"type": "base64", "media_type": "image/png", "data": png.data} in [
            part.get("source") for part in block["content"]
        ]
        responses = tool_definitions("openai-responses", group.tools)
        assert all(t["strict"] is False and t["type"] == "function" for t in responses)
        with pytest.raises(ValueError, match="unknown LLM API"):
            tool_definitions("gemini", group.tools)  # type: ignore[arg-type]


def chatbot(args: list[str], line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Runs examples/python/chatbot.py with one line of input, then `quit`."""
    script = REPO / "examples" / "python" / "chatbot.py"
    return subprocess.run(
        [sys.executable, str(script), *args],
        input=f"{line}\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_chatbot_example_completes_a_multi_tool_conversation(tmp_path: Path) -> None:
    config = mcp_json(tmp_path)
    del config["mcpServers"]["ferry2"]
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(config))
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    run = chatbot(["--config", str(path), "--scripted"], "Remember the ferry, read my note, then add 2 and 40", env)
    assert run.returncode == 0, run.stderr
    assert "broken" in run.stderr and "failed" in run.stderr
    out = run.stdout
    assert "create_entities" in out and "read_text_file" in out and "get-sum" in out
    assert "the ferry leaves at noon" in out and "42" in out


def test_the_chatbot_example_speaks_chat_completions_over_http(tmp_path: Path) -> None:
    """With OPENAI_API_KEY set, the example posts to OPENAI_BASE_URL/chat/completions: here
    an endpoint of this test that answers as a model would (one tool call, then text)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    bodies: list[dict[str, Any]] = []
    keys: list[str | None] = []

    class Endpoint(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            bodies.append(body)
            keys.append(self.headers.get("Authorization"))
            last = body["messages"][-1]
            if last["role"] == "tool":
                message = {"role": "assistant", "content": f"The sum: {last['content']}"}
            else:
                call = {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get-sum", "arguments": '{"a": 2, "b": 40}'},
                }
                message = {"role": "assistant", "content": None, "tool_calls": [call]}
            answer = json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        config = {"mcpServers": {"everything": {"command": "node", "args": [reference("server-everything"), "stdio"]}}}
        path = tmp_path / "mcp.json"
        path.write_text(json.dumps(config))
        env = {
            **os.environ,
            "OPENAI_API_KEY": "test-key",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{server.server_port}/v1",
        }
        run = chatbot(["--config", str(path)], "add 2 and 40", env)
    finally:
        server.shutdown()
    assert run.returncode == 0, run.stderr
    assert "assistant: The sum: " in run.stdout and "42" in run.stdout
    assert keys == ["Bearer test-key", "Bearer test-key"]
    first, second = bodies
    assert first["model"] == "gpt-4o-mini"
    assert any(t["type"] == "function" and t["function"]["name"] == "get-sum" for t in first["tools"])
    assert second["messages"][-1]["tool_call_id"] == "c1" and "42" in second["messages"][-1]["content"]
