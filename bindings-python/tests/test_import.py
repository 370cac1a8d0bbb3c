"""`import ferrymcp` is fast and light: no pydantic, no asyncio, no native engine yet;
and the official SDK's import paths exist."""

import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1] / "python"


def _run(code: str) -> str:
    env_path = f"import sys; sys.path.insert(0, {str(PYTHON_DIR)!r})\n"
    out = subprocess.run([sys.executable, "-c", env_path + code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_import_loads_neither_pydantic_nor_asyncio() -> None:
    heavy = ("pydantic", "asyncio", "ferrymcp._native")
    loaded = _run(f"import sys, ferrymcp; print(sorted(m for m in {heavy!r} if m in sys.modules))")
    assert loaded == "[]"


def test_the_official_import_paths() -> None:
    code = """
from ferrymcp import FastMCP, MCPServer, Context, Client, McpError, Image, Audio, types
from ferrymcp.server import MCPServer as V2
from ferrymcp.server.mcpserver import MCPServer as V2b, Context as C2, Image as I2, UserMessage
from ferrymcp.server.fastmcp import FastMCP as V1, Context as C1, Image as I1
from ferrymcp.server.fastmcp.prompts import base
from ferrymcp.server.fastmcp.utilities.types import Image as I3
from ferrymcp.server.session import ServerSession
from ferrymcp.exceptions import McpError as E, MCPError, ConnectionClosed, RequestTimeout, ProtocolError
from ferrymcp.types import CallToolResult, TextContent, Tool
assert FastMCP is V1 and issubclass(V1, MCPServer) and MCPServer is V2 is V2b
assert Context is C1 is C2 and Image is I1 is I2 is I3
assert E is McpError is MCPError and issubclass(RequestTimeout, McpError)
assert base.UserMessage is UserMessage
print("ok")
"""
    assert _run(code) == "ok"
