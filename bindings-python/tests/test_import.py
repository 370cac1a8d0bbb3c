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


def test_a_server_loads_neither_the_client_package_nor_the_auth_provider() -> None:
    # What the benchmark's server imports; the client package and the OAuth provider's
    # models load on first use only (benches/README.md, 2026-11-27 session 16).
    code = """
import sys
import ferrymcp.server.mcpserver, ferrymcp.types
print(sorted(m for m in sys.modules if m.startswith(("ferrymcp.client", "ferrymcp.server.auth.provider"))))
"""
    assert _run(code) == "[]"


def test_a_server_loads_the_http_endpoint_app_only_when_asked_for_it() -> None:
    # A stdio server never builds the HTTP endpoint's ASGI app (benches/README.md, 2026-11-28
    # session 20); `streamable_http_app()` loads it (test_asgi.py, test_custom_routes.py).
    code = """
import sys
from ferrymcp.server.mcpserver import MCPServer
print("ferrymcp.server.streamable_http_manager" in sys.modules)
"""
    assert _run(code) == "False"


def test_every_public_name_loads_on_first_use_and_type_checkers_see_the_same_names() -> None:
    import ast

    tree = ast.parse((PYTHON_DIR / "ferrymcp" / "__init__.py").read_text())
    guarded = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    imports = [node for node in guarded.body if isinstance(node, ast.ImportFrom)]
    seen = {alias.asname or alias.name for node in imports for alias in node.names}
    code = """
import sys, ferrymcp
assert [m for m in sys.modules if m.startswith("ferrymcp.")] == [], sys.modules
lazy = set(ferrymcp._LAZY) | {"types"}
assert lazy == set(ferrymcp.__all__), sorted(lazy ^ set(ferrymcp.__all__))
# These two need the native engine, which this source tree does not hold.
values = {name: getattr(ferrymcp, name) for name in sorted(lazy - {"RedisStore", "ClientSessionGroup"})}
assert ferrymcp.TextContent is ferrymcp.types.TextContent and ferrymcp.MCPServer.__name__ == "MCPServer"
assert set(dir(ferrymcp)) >= lazy
from ferrymcp.server.auth.middleware.auth_context import AccessToken
from ferrymcp.server.auth.provider import AccessToken as A2
assert AccessToken is A2
print(sorted(lazy))
"""
    assert _run(code) == str(sorted(seen))
