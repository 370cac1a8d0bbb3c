"""The kernel drivers (`mcp.server.runner`): serve a low-level `Server` over a transport
entry of the application's own.

    async with server.lifespan(server) as state:
        result = await serve_one(server, dctx, "tools/call", params, connection=connection, lifespan_state=state)

    async with stdio_server() as (read, write):
        dispatcher = JSONRPCDispatcher(read, write, inline_methods=frozenset({"initialize"}))
        await serve_connection(server, dispatcher, connection=Connection.for_loop(dispatcher), lifespan_state=state)

`serve_one` answers one request and returns its result dict (a JSON-RPC error raises
`McpError` with its code, message and data). It runs through core's engine, as every other
way of serving does: the request goes over an in-process native port to the engine serving
`server`, so validation, the init gate, result stamping, cache hints, middleware and the
error shapes are core's. A 2026-07-28 connection (`Connection.from_envelope`) sends the
request with the `_meta` envelope the connection states (values the params carry win); a
connection on a handshake revision first runs the `initialize` handshake with the
connection's client info and capabilities (an unnamed client when it does not know
them). Notifications the handler sends go to
`dctx.notify`; requests it sends the client (before 2026-07-28) go to
`dctx.send_raw_request`, and what that returns (or raises) answers them; `dctx`'s
`cancel_requested` firing, or the caller being cancelled, cancels the request in the
engine.

`serve_connection` serves the connection of a `ferrymcp.shared.jsonrpc_dispatcher.JSONRPCDispatcher`
(stdio, or a pair of `SessionMessage` streams) until the client goes away, as
`Server.run()`. Both drivers use the caller's `lifespan_state` (the handler's
`ctx.lifespan_context`) and never enter the lifespan themselves, and both close
`connection.exit_stack` on the way out.

What differs from the official kernel: the engine keeps its own connection, so the
`Connection` given to `serve_connection` is not updated by the handshake (its
`protocol_version`, `client_params` and `initialized` stay as given) and sending through it
is refused by the dispatcher (a handler reaches the client through `ctx.session`);
`init_options=` declares the server's name, version, instructions and extra capabilities as
`Server.run(read, write, options)` does. `serve_dual_era_loop(server, read, write, ...)` is
`serve_connection` over a stream pair (the engine serves the era the client opens with);
its `session_id=` and `raise_exceptions=True` are refused. The official kernel internals
(`ServerRunner`, the handshake-only `serve_loop`, `modern_on_request` for the in-process
`DirectDispatcher`) raise `NotImplementedError` naming what to use instead.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from ferrymcp.exceptions import McpError, RequestCancelled
from ferrymcp.server.connection import Connection
from ferrymcp.server.context import CallNext, ServerMiddleware
from ferrymcp.shared.dispatcher import DispatchContext
from ferrymcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

logger = logging.getLogger(__name__)

_EXIT_STACK_CLOSE_TIMEOUT = 5.0
_HANDSHAKE_ID = "ferrymcp-serve-one-initialize"


def _code(name: str) -> int:
    """One of core's JSON-RPC error codes (`INTERNAL_ERROR`, `REQUEST_CANCELLED`)."""
    from ferrymcp import _native

    return int(_native.ERROR_CODES[name])


def _low_level_server(server: Any, driver: str) -> Any:
    from ferrymcp.server.lowlevel.server import Server

    if not isinstance(server, Server):
        raise TypeError(
            f"{driver}() takes a low-level ferrymcp.server.lowlevel.Server, not {type(server).__name__} "
            "(as the official drivers)"
        )
    return server


async def aclose_shielded(connection: Connection) -> None:
    """Closes `connection.exit_stack` even when the caller is being cancelled, bounded in
    time; a failing cleanup callback is logged, never raised over the driver's own outcome."""
    from ferrymcp import _aio

    try:
        await _aio.uncancelled(_aio.wait_for(connection.exit_stack.aclose(), _EXIT_STACK_CLOSE_TIMEOUT))
    except TimeoutError:
        logger.warning(
            "connection exit_stack cleanup exceeded %s seconds; abandoning remaining callbacks",
            _EXIT_STACK_CLOSE_TIMEOUT,
        )
    except Exception:
        logger.exception("connection exit_stack cleanup raised")


def _dumped(value: Any) -> Any:
    if value is None:
        return None
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, mode="json", exclude_none=True)
    return value


def _client_facts(connection: Connection) -> tuple[Any, Any]:
    """The connection's client info and capabilities, as wire dicts (`None` when unknown)."""
    params = connection.client_params
    info = _dumped(getattr(params, "client_info", None)) if params is not None else None
    return info, _dumped(connection.client_capabilities)


def _enveloped(params: Mapping[str, Any] | None, connection: Connection) -> dict[str, Any]:
    """`params` with the connection's 2026-07-28 envelope in `_meta` (values already there win)."""
    from ferrymcp import types

    out = dict(params or {})
    meta = dict(out.get("_meta") or {})
    info, capabilities = _client_facts(connection)
    meta.setdefault(types.PROTOCOL_VERSION_META_KEY, connection.protocol_version)
    if info is not None:
        meta.setdefault(types.CLIENT_INFO_META_KEY, info)
    if capabilities is not None:
        meta.setdefault(types.CLIENT_CAPABILITIES_META_KEY, capabilities)
    out["_meta"] = meta
    return out


class _Exchange:
    """One request's way to and from the engine over a native port."""

    def __init__(self, port: Any, dctx: Any) -> None:
        self.port = port
        self.dctx = dctx
        self.cancelled = False
        self.answered = False

    def send(self, message: dict[str, Any]) -> None:
        if not self.port.send(json.dumps(message, ensure_ascii=False)):
            raise McpError(_code("INTERNAL_ERROR"), "serve_one: the engine closed the exchange")

    async def answer(self, request_id: Any) -> dict[str, Any]:
        """The engine's answer to `request_id`, relaying what comes before it to `dctx`."""
        from ferrymcp import _aio

        while True:
            text = await _aio.background(self.port.recv())
            if text is None:
                if self.cancelled:
                    raise RequestCancelled(
                        _code("REQUEST_CANCELLED"), "serve_one: the request was cancelled (cancel_requested)"
                    )
                raise McpError(_code("INTERNAL_ERROR"), "serve_one: the engine closed the exchange before answering")
            message = json.loads(text)
            if "method" not in message:
                if message.get("id") != request_id:
                    continue
                self.answered = True
                error = message.get("error")
                if error is not None:
                    raise McpError(
                        error.get("code", _code("INTERNAL_ERROR")), error.get("message", ""), error.get("data")
                    )
                result = message.get("result")
                return result if isinstance(result, dict) else {}
            if "id" in message:
                await self._relay_request(message)
            else:
                await self.dctx.notify(message["method"], message.get("params"))

    async def _relay_request(self, message: dict[str, Any]) -> None:
        """A request the handler sent the client: `dctx.send_raw_request` answers it."""
        try:
            result = await self.dctx.send_raw_request(message["method"], message.get("params"))
        except McpError as error:
            reply: dict[str, Any] = {"code": error.error.code, "message": error.error.message}
            if error.error.data is not None:
                reply["data"] = error.error.data
            self.send({"jsonrpc": "2.0", "id": message["id"], "error": reply})
            return
        except Exception as error:
            self.send(
                {
                    "jsonrpc": "2.0",
                    "id": message["id"],
                    "error": {"code": _code("INTERNAL_ERROR"), "message": str(error)},
                }
            )
            return
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": _dumped(result) or {}})


async def _watch_cancel(dctx: Any, exchange: _Exchange, request_id: Any) -> None:
    event = getattr(dctx, "cancel_requested", None)
    wait = getattr(event, "wait", None)
    if wait is None:
        return
    await wait()
    exchange.cancelled = True
    with suppress(McpError):
        exchange.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})
    # The engine answers no cancelled request: the end of the exchange ends the wait.
    exchange.port.close()


async def serve_one(
    server: Any,
    dctx: DispatchContext[Any],
    method: str,
    params: Mapping[str, Any] | None,
    *,
    connection: Connection,
    lifespan_state: Any,
) -> dict[str, Any]:
    """Answers one request `(method, params)` with `server` and returns its result dict
    (see the module doc); a JSON-RPC error raises `McpError`."""
    from ferrymcp import _aio, _version
    from ferrymcp._native import NativePort

    low_level = _low_level_server(server, "serve_one")
    request_id = dctx.request_id if dctx.request_id is not None else 1
    modern = connection.protocol_version in _version.MODERN_PROTOCOL_VERSIONS
    port = NativePort()
    exchange = _Exchange(port, dctx)
    try:
        async with low_level._serving_in(lifespan_state) as native:
            serving = native.serve_port(port)
            watcher = None
            try:
                if modern:
                    params = _enveloped(params, connection)
                elif connection.initialize_accepted:
                    info, capabilities = _client_facts(connection)
                    exchange.send(
                        {
                            "jsonrpc": "2.0",
                            "id": _HANDSHAKE_ID,
                            "method": "initialize",
                            "params": {
                                "protocolVersion": connection.protocol_version,
                                "capabilities": capabilities or {},
                                "clientInfo": info or {"name": "serve_one", "version": ""},
                            },
                        }
                    )
                    await exchange.answer(_HANDSHAKE_ID)
                    exchange.answered = False
                    exchange.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
                request: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
                if params is not None:
                    request["params"] = dict(params)
                exchange.send(request)
                watcher = _aio.spawn(_watch_cancel(dctx, exchange, request_id))
                return await exchange.answer(request_id)
            finally:
                if watcher is not None:
                    watcher.cancel()
                if not exchange.answered:
                    with suppress(McpError):
                        exchange.send(
                            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}
                        )
                port.close()
                await _aio.uncancelled(serving)
    finally:
        await aclose_shielded(connection)


async def serve_connection(
    server: Any,
    dispatcher: JSONRPCDispatcher[Any],
    *,
    connection: Connection,
    lifespan_state: Any,
    init_options: Any = None,
    task_status: Any = None,
) -> None:
    """Serves `dispatcher`'s connection with `server` until the client goes away (see the
    module doc); `task_status.started()` is called once the engine serves it."""
    from ferrymcp.server.mcpserver.server import _serve_stdio, _serve_streams

    low_level = _low_level_server(server, "serve_connection")
    if not isinstance(dispatcher, JSONRPCDispatcher):
        raise TypeError(
            "serve_connection() serves a ferrymcp.shared.jsonrpc_dispatcher.JSONRPCDispatcher, not "
            f"{type(dispatcher).__name__}: ferrymcp's engine is the dispatcher"
        )
    from ferrymcp.server.models import InitializationOptions

    if init_options is not None and not isinstance(init_options, InitializationOptions):
        raise TypeError(
            f"serve_connection(init_options=...) takes InitializationOptions, not {type(init_options).__name__}"
        )
    low_level._apply_initialization_options(init_options)
    started = getattr(task_status, "started", None)
    try:
        async with low_level._serving_in(lifespan_state) as native:
            if dispatcher.is_stdio:
                await _serve_stdio(native, started)
            else:
                await _serve_streams(native, dispatcher.read_stream, dispatcher.write_stream, started)
    finally:
        await aclose_shielded(connection)


async def serve_dual_era_loop(
    server: Any,
    read_stream: Any,
    write_stream: Any,
    *,
    lifespan_state: Any,
    session_id: str | None = None,
    init_options: Any = None,
    raise_exceptions: bool = False,
) -> None:
    """Serves `server` over a stream pair in the era the client opens with, until the
    channel closes (what `Server.run()` does; see the module doc)."""
    if session_id is not None:
        raise NotImplementedError(
            "serve_dual_era_loop(session_id=...) is not supported by ferrymcp: the engine keeps the connection, "
            "and a stream pair has no session id"
        )
    dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(
        read_stream, write_stream, raise_handler_exceptions=raise_exceptions
    )
    await serve_connection(
        server,
        dispatcher,
        connection=Connection.for_loop(dispatcher),
        lifespan_state=lifespan_state,
        init_options=init_options,
    )


_REFUSED = {
    "ServerRunner": "ServerRunner is the official kernel's internal (never constructed by applications there "
    "either); ferrymcp's engine is the kernel: use serve_one or serve_connection",
    "serve_loop": "serve_loop (the handshake-only loop) is not in ferrymcp: the engine serves the era the client "
    "opens with; use serve_dual_era_loop or serve_connection",
    "modern_on_request": "modern_on_request feeds the official in-process DirectDispatcher, which ferrymcp does not "
    "have: Client(server) serves in memory through the engine, and serve_one answers one request",
}


def __getattr__(name: str) -> Any:
    if name in _REFUSED:
        raise NotImplementedError(_REFUSED[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CallNext",
    "ServerMiddleware",
    "aclose_shielded",
    "serve_connection",
    "serve_dual_era_loop",
    "serve_one",
]
