"""`ferrymcp.server.runner` (the official `mcp.server.runner`): `serve_one` answers one
request through the engine and returns its result dict, on a 2026-07-28 connection (the
envelope stated by the `Connection`) and on a handshake one (the handshake run first), with
JSON-RPC errors raised as `McpError`, what the handler sends the client relayed through the
`DispatchContext`, cancellation, the caller's lifespan state and the connection's exit
stack; `serve_connection` serves a `JSONRPCDispatcher` over real stdio (a child process)
with the lifespan entered once by the entry; the official options ferrymcp cannot honour
are refused by name.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")

import ferrymcp  # noqa: E402
from ferrymcp import types  # noqa: E402
from ferrymcp.exceptions import McpError, RequestCancelled  # noqa: E402
from ferrymcp.server.connection import Connection  # noqa: E402
from ferrymcp.server.lowlevel import Server  # noqa: E402
from ferrymcp.server.mcpserver import MCPServer  # noqa: E402
from ferrymcp.server.runner import serve_connection, serve_one  # noqa: E402
from ferrymcp.server.stdio import stdio_server  # noqa: E402
from ferrymcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher  # noqa: E402
from ferrymcp.shared.transport_context import TransportContext  # noqa: E402
from ferrymcp.types import version  # noqa: E402

PEER = Path(__file__).resolve().parent / "peers" / "runner_server.py"
CLIENT = {"name": "runner-test", "version": "1.0"}


class Exchange:
    """A hand-built `DispatchContext` for one request: keeps what the handler sent the
    client and answers its requests from a table."""

    def __init__(self, answers: dict[str, dict[str, Any]] | None = None) -> None:
        self.request_id = 7
        self.transport = TransportContext(kind="custom", can_send_request=answers is not None)
        self.can_send_request = answers is not None
        self.message_metadata = None
        self.cancel_requested = asyncio.Event()
        self.answers = answers or {}
        self.notified: list[tuple[str, Any]] = []
        self.asked: list[str] = []

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        self.asked.append(method)
        return self.answers[method]

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        self.notified.append((method, params))

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        self.notified.append(("progress", progress))


started = asyncio.Event()


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    if params.name == "add":
        total = args["a"] + args["b"]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=str(total))], structured_content={"result": total}
        )
    if params.name == "state":
        return types.CallToolResult(content=[types.TextContent(type="text", text=ctx.lifespan_context["db"])])
    if params.name == "progress":
        await ctx.session.send_progress_notification("tok", 1, 2)
        return types.CallToolResult(content=[])
    if params.name == "roots":
        roots = await ctx.session.list_roots()
        return types.CallToolResult(content=[types.TextContent(type="text", text=str(roots.roots[0].uri))])
    if params.name == "forever":
        started.set()
        await asyncio.Event().wait()
    raise KeyError(params.name)


def build() -> Server[Any]:
    @asynccontextmanager
    async def lifespan(server: Any) -> AsyncIterator[dict[str, str]]:
        yield {"db": "entered"}

    return Server("runner-test", on_call_tool=call_tool, lifespan=lifespan)


def modern() -> Connection:
    return Connection.from_envelope(version.LATEST_MODERN_VERSION, CLIENT, {})


async def test_serve_one_answers_a_2026_request_with_its_result_dict() -> None:
    server = build()
    async with server.lifespan(server) as state:
        connection = modern()
        closed: list[str] = []
        connection.exit_stack.callback(closed.append, "closed")
        params = {"name": "add", "arguments": {"a": 2, "b": 3}}
        raw = await serve_one(server, Exchange(), "tools/call", params, connection=connection, lifespan_state=state)
        assert raw["structuredContent"] == {"result": 5}
        assert raw["content"] == [{"type": "text", "text": "5"}]
        # The engine stamps a 2026-07-28 result.
        assert raw["resultType"] == "complete"
        assert raw["_meta"][types.SERVER_INFO_META_KEY]["name"] == "runner-test"
        assert closed == ["closed"]
        # The caller's lifespan state is the handler's, not one the driver entered.
        text = await serve_one(
            server, Exchange(), "tools/call", {"name": "state"}, connection=modern(), lifespan_state={"db": "given"}
        )
        assert text["content"][0]["text"] == "given"

    # The official attribute is assignable; the entry enters what it holds.
    @asynccontextmanager
    async def swapped(server: Any) -> AsyncIterator[dict[str, str]]:
        yield {"db": "swapped"}

    server.lifespan = swapped
    async with server.lifespan(server) as state:
        raw = await serve_one(
            server, Exchange(), "tools/call", {"name": "state"}, connection=modern(), lifespan_state=state
        )
    assert raw["content"][0]["text"] == "swapped"


async def test_serve_one_on_a_handshake_connection_and_its_errors() -> None:
    server = build()
    connection = Connection.from_envelope("2025-11-25", CLIENT, {"roots": {}})
    raw = await serve_one(
        server,
        Exchange(),
        "tools/call",
        {"name": "add", "arguments": {"a": 1, "b": 1}},
        connection=connection,
        lifespan_state={},
    )
    assert raw["structuredContent"] == {"result": 2} and "resultType" not in raw
    with pytest.raises(McpError) as failed:
        await serve_one(server, Exchange(), "prompts/list", None, connection=modern(), lifespan_state={})
    assert failed.value.error.code == -32601
    # A connection that does not know its client (`None` reads as not supplied): core
    # refuses the envelope missing its keys.
    bare = Connection.from_envelope(version.LATEST_MODERN_VERSION, None, None)
    with pytest.raises(McpError) as failed:
        await serve_one(server, Exchange(), "tools/call", {"name": "add"}, connection=bare, lifespan_state={})
    assert failed.value.error.code == -32602 and "clientCapabilities" in failed.value.error.message


async def test_serve_one_relays_what_the_handler_sends_the_client() -> None:
    server = build()
    dctx = Exchange({"roots/list": {"roots": [{"uri": "file:///work"}]}})
    connection = Connection.from_envelope("2025-11-25", CLIENT, {"roots": {}})
    raw = await serve_one(server, dctx, "tools/call", {"name": "roots"}, connection=connection, lifespan_state={})
    assert raw["content"][0]["text"] == "file:///work"
    assert dctx.asked == ["roots/list"]
    dctx = Exchange()
    params = {"name": "progress", "_meta": {"progressToken": "tok"}}
    await serve_one(
        server,
        dctx,
        "tools/call",
        params,
        connection=Connection.from_envelope("2025-11-25", CLIENT, {}),
        lifespan_state={},
    )
    assert [m for m, _ in dctx.notified] == ["notifications/progress"]
    assert dctx.notified[0][1]["progressToken"] == "tok"


async def test_serve_one_is_cancelled_through_its_dispatch_context() -> None:
    server = build()
    dctx = Exchange()
    started.clear()
    pending = asyncio.ensure_future(
        serve_one(server, dctx, "tools/call", {"name": "forever"}, connection=modern(), lifespan_state={})
    )
    await started.wait()
    dctx.cancel_requested.set()
    with pytest.raises(RequestCancelled):
        await pending


async def test_serve_connection_serves_stdio_by_hand(tmp_path: Path) -> None:
    marker = tmp_path / "exit-stack"
    for mode in ("legacy", "auto"):
        async with ferrymcp.Client([sys.executable, str(PEER), str(marker)], mode=mode) as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["greet"]
            result = await client.call_tool("greet", {})
            assert result.content[0].text == "hello from the lifespan (entered 1 time(s))"
            if mode == "legacy":
                assert client.server_info is not None and client.server_info.name == "runner-by-hand"
    assert marker.read_text() == "closed"
    command = [sys.executable, str(PEER), str(tmp_path / "unused"), "dual"]
    for mode in ("legacy", "auto"):
        async with ferrymcp.Client(command, mode=mode) as client:
            assert (await client.call_tool("greet", {})).content[0].text.startswith("hello from the lifespan")


async def test_what_ferrymcp_cannot_honour_is_refused_by_name() -> None:
    async with stdio_server() as (read, write):
        for options, named in (
            ({"raise_handler_exceptions": True}, "raise_handler_exceptions"),
            ({"peer_cancel_mode": "signal"}, "peer_cancel_mode"),
            ({"transport_builder": lambda md: md}, "transport_builder"),
            ({"inline_methods": frozenset({"tools/call"})}, "inline_methods"),
        ):
            with pytest.raises(NotImplementedError, match=named):
                JSONRPCDispatcher(read, write, **options)
        dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(read, write)
        with pytest.raises(NotImplementedError, match="serve_connection"):
            await dispatcher.run(None, None)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="low-level"):
            await serve_connection(MCPServer("x"), dispatcher, connection=modern(), lifespan_state={})
    with pytest.raises(TypeError, match="low-level"):
        await serve_one(MCPServer("x"), Exchange(), "ping", None, connection=modern(), lifespan_state={})
    from ferrymcp.server import runner
    from ferrymcp.shared import direct_dispatcher

    for name in ("ServerRunner", "serve_loop", "modern_on_request"):
        with pytest.raises(NotImplementedError, match=name):
            getattr(runner, name)
    with pytest.raises(NotImplementedError, match="serves in memory"):
        direct_dispatcher.DirectDispatcher()
    with pytest.raises(NotImplementedError, match="session_id"):
        await runner.serve_dual_era_loop(build(), None, None, lifespan_state={}, session_id="s")
