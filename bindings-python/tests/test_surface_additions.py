"""Names of the official SDK that scripts/surface-diff.py found missing and the official
examples and documentation import, now in ferrymcp. What involves the protocol runs over
stdio against the official client (peers/surface_v1_server.py); what ferrymcp refuses
raises an error naming the name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "surface_v1_server.py"


def params(kind: str) -> Any:
    return mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), kind])


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_v1_progress_reports_a_running_total(mode: str) -> None:
    reports: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    async with mcp.Client(params("fastmcp"), mode=mode) as c:
        if mode == "legacy":  # (the official client pinned to 2026-07-28 asks nothing up front)
            assert c.instructions == "Instructions, 1.x's second positional."
        result = await c.call_tool("count", {"steps": 3}, progress_callback=on_progress)
        assert result.content[0].text == "counted 30.0"
        assert reports == [(10.0, 30.0, "step"), (20.0, 30.0, "step"), (30.0, 30.0, "step")]
        # Without a progress token, 1.x's progress() refuses.
        refused = await c.call_tool("count", {"steps": 1})
        assert refused.is_error
        assert "No progress token provided" in refused.content[0].text


async def test_anyurl_is_taken_where_a_uri_is() -> None:
    from ferrymcp import Client
    from ferrymcp.types import AnyUrl

    async with Client([sys.executable, str(PEER), "fastmcp"]) as c:
        read = await c.read_resource(AnyUrl("note://abc"))
        assert read.contents[0].text == "note abc"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_request_ctx_is_the_request_being_served(mode: str) -> None:
    async with mcp.Client(params("lowlevel"), mode=mode) as c:
        result = await c.call_tool("whoami", {})
        method, request_id, uri = result.content[0].text.split(" ")
        assert method == "tools/call"
        assert request_id not in ("", "None")
        assert uri == "note://x"


def test_request_ctx_outside_a_request_is_a_lookup_error() -> None:
    from ferrymcp.server.lowlevel.server import request_ctx

    with pytest.raises(LookupError):
        request_ctx.get()


def test_the_official_paths_name_the_same_objects() -> None:
    import ferrymcp.client
    import ferrymcp.server.extension
    import ferrymcp.server.fastmcp
    from ferrymcp.client.context import ClientRequestContext
    from ferrymcp.server import FastMCP
    from ferrymcp.server.fastmcp.server import FastMCP as FastMCPv1
    from ferrymcp.server.mcpserver import MethodBinding, ResourceBinding, ToolBinding

    assert ClientRequestContext is ferrymcp.client.ClientRequestContext
    assert FastMCP is FastMCPv1 is ferrymcp.server.fastmcp.FastMCP
    assert ToolBinding is ferrymcp.server.extension.ToolBinding
    assert ResourceBinding is ferrymcp.server.extension.ResourceBinding
    assert MethodBinding is ferrymcp.server.extension.MethodBinding
    import ferrymcp.server.mcpserver.resources as resources
    import ferrymcp.server.mcpserver.tools as tools

    for era in ("mcpserver", "fastmcp"):
        types_module = __import__(f"ferrymcp.server.{era}.resources.types", fromlist=["*"])
        for name in ("BinaryResource", "FileResource", "FunctionResource", "TextResource"):
            assert getattr(types_module, name) is getattr(resources, name)
        assert __import__(f"ferrymcp.server.{era}.resources.base", fromlist=["*"]).Resource is resources.Resource
        assert __import__(f"ferrymcp.server.{era}.tools.base", fromlist=["*"]).Tool is tools.Tool


def test_cache_hints_are_validated_and_apply_cache_hint_is_refused() -> None:
    from ferrymcp.server import MCPServer
    from ferrymcp.server.caching import CacheHint, apply_cache_hint, validate_cache_hints

    hint = CacheHint(ttl_ms=5000, scope="public")
    assert validate_cache_hints({"tools/list": hint}) == {"tools/list": hint}
    assert validate_cache_hints(None) == {}
    with pytest.raises(ValueError, match="'tools/call'"):
        validate_cache_hints({"tools/call": hint})
    with pytest.raises(TypeError, match=r"cache_hints\['tools/list'\] must be a CacheHint"):
        validate_cache_hints({"tools/list": 5})
    # The server constructors check with the same function.
    with pytest.raises(ValueError, match="cacheable methods"):
        MCPServer("x", cache_hints={"ping": hint})  # type: ignore[dict-item]
    with pytest.raises(NotImplementedError, match="apply_cache_hint"):
        apply_cache_hint(object(), hint)


def test_contexts_and_transport_context() -> None:
    from ferrymcp.shared.context import BaseContext, RequestContext
    from ferrymcp.shared.transport_context import TransportContext

    with pytest.raises(TypeError, match="BaseContext"):
        BaseContext(object(), None)
    assert RequestContext.__name__ == "RequestContext"
    transport = TransportContext(kind="stdio", can_send_request=True)
    assert transport.headers is None
    with pytest.raises(TypeError):
        TransportContext("stdio", True)  # type: ignore[misc]  # keyword-only, as there


def test_refused_transports_and_routes_name_themselves() -> None:
    from ferrymcp.server.auth.routes import create_protected_resource_routes
    from ferrymcp.server.sse import SseServerTransport

    with pytest.raises(NotImplementedError, match="SseServerTransport"):
        SseServerTransport("/messages/")
    # (`create_auth_routes` and `cors_middleware` are served: test_auth_server.py.)
    with pytest.raises(NotImplementedError, match="create_protected_resource_routes"):
        create_protected_resource_routes()


def test_import_ferrymcp_loads_none_of_them() -> None:
    code = (
        "import sys, ferrymcp\n"
        "names = ['ferrymcp.shared.progress', 'ferrymcp.server.sse', 'ferrymcp.server.auth.routes',"
        " 'ferrymcp.shared.transport_context', 'ferrymcp.client.context', 'ferrymcp.server.fastmcp.server',"
        " 'ferrymcp.shared.auth_utils']\n"
        "print([n for n in names if n in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_resource_indicators_follow_core_and_agree_with_the_official_helpers() -> None:
    from mcp.shared import auth_utils as official

    from ferrymcp.shared.auth_utils import calculate_token_expiry, check_resource_allowed, resource_url_from_server_url

    for url in ("HTTPS://Example.COM/mcp", "https://example.com/mcp#frag", "http://localhost:8000/mcp/"):
        assert resource_url_from_server_url(url) == official.resource_url_from_server_url(url)
    # Core's indicator has no query (the official helper keeps it).
    assert resource_url_from_server_url("https://example.com/mcp?x=1") == "https://example.com/mcp"
    with pytest.raises(ValueError, match="not an absolute URL"):
        resource_url_from_server_url("/relative")
    pairs = [
        ("https://example.com/mcp", "https://example.com/mcp"),
        ("https://example.com/mcp/tools", "https://example.com/mcp"),
        ("https://example.com/mcp", "https://example.com/"),
        ("https://example.com/mcp123", "https://example.com/mcp"),
        ("https://example.com/api", "https://example.com/mcp"),
        ("https://other.com/mcp", "https://example.com/mcp"),
        ("http://example.com/mcp", "https://example.com/mcp"),
        ("https://example.com:8443/mcp", "https://example.com/mcp"),
    ]
    for requested, configured in pairs:
        ours = check_resource_allowed(requested, configured)
        assert ours == official.check_resource_allowed(requested, configured), (requested, configured)
    assert [check_resource_allowed(r, c) for r, c in pairs] == [True, True, True, False, False, False, False, False]
    assert calculate_token_expiry(None) is None
    expiry = calculate_token_expiry("60")
    assert expiry is not None and 0 < expiry - __import__("time").time() <= 60
