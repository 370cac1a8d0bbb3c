"""`JSONRPCDispatcher` (`mcp.shared.jsonrpc_dispatcher`): a connection over a pair of
`SessionMessage` streams, for `ferrymcp.server.runner.serve_connection`.

The official dispatcher is the message loop itself. In ferrymcp core's engine is the loop
(it reads the streams through a native port, or stdio directly for the pair of
`ferrymcp.server.stdio.stdio_server()`, and does correlation, cancellation, the handshake
and both eras), so this class holds the streams and the options the engine can honour, and
refuses the rest by name: `transport_builder=` (the engine builds each message's transport
facts), `peer_cancel_mode="signal"` (the engine interrupts a cancelled handler),
`raise_handler_exceptions=True` (a failing handler is a JSON-RPC error, as
`Server.run(raise_exceptions=True)`), `inline_methods=` other than `initialize` (the engine
always settles `initialize` before the next message: pipelining it is safe with or without
the option) and `on_stream_exception=` (stream errors are logged as warnings). Driving it
by hand (`run(on_request, on_notify)`) or sending through it (`send_raw_request`,
`notify`) is refused: the engine owns the connection; a handler reaches the client through
`ctx.session`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Generic, TypeVar

from ferrymcp.shared.dispatcher import CallOptions, OnNotify, OnRequest
from ferrymcp.shared.transport_context import TransportContext

TransportT = TypeVar("TransportT", bound=TransportContext)

_ENGINE_OWNS = (
    "ferrymcp's engine owns the connection a JSONRPCDispatcher describes: hand the dispatcher to "
    "ferrymcp.server.runner.serve_connection(server, dispatcher, ...), and reach the client from a handler "
    "through ctx.session"
)


class JSONRPCDispatcher(Generic[TransportT]):
    """A connection over `(read_stream, write_stream)` that the engine serves (see the
    module doc)."""

    def __init__(
        self,
        read_stream: Any,
        write_stream: Any,
        *,
        transport_builder: Callable[[Any], TransportT] | None = None,
        peer_cancel_mode: str = "interrupt",
        raise_handler_exceptions: bool = False,
        inline_methods: frozenset[str] = frozenset(),
        on_stream_exception: Callable[[Exception], Awaitable[None]] | None = None,
    ) -> None:
        from ferrymcp._carried import is_stream_pair
        from ferrymcp.server.stdio import StdioStream

        stdio = isinstance(read_stream, StdioStream) and write_stream is read_stream
        if not stdio and not is_stream_pair(read_stream, write_stream):
            raise TypeError(
                "JSONRPCDispatcher needs the pair of ferrymcp.server.stdio.stdio_server(), or two streams of "
                "SessionMessage (read_stream.receive(), write_stream.send())"
            )
        if transport_builder is not None:
            raise NotImplementedError(
                "JSONRPCDispatcher(transport_builder=...) is not supported by ferrymcp: the engine builds each "
                "message's transport context"
            )
        if peer_cancel_mode != "interrupt":
            raise NotImplementedError(
                f"JSONRPCDispatcher(peer_cancel_mode={peer_cancel_mode!r}) is not supported by ferrymcp: the engine "
                "interrupts the handler of a cancelled request ('interrupt')"
            )
        if raise_handler_exceptions:
            raise NotImplementedError(
                "JSONRPCDispatcher(raise_handler_exceptions=True) is not supported by ferrymcp: a failing handler "
                "is answered with a JSON-RPC error and serving goes on"
            )
        others = sorted(set(inline_methods) - {"initialize"})
        if others:
            raise NotImplementedError(
                f"JSONRPCDispatcher(inline_methods=...) takes only 'initialize' in ferrymcp, not {others}: the "
                "engine runs every other request concurrently"
            )
        if on_stream_exception is not None:
            raise NotImplementedError(
                "JSONRPCDispatcher(on_stream_exception=...) is not supported by ferrymcp: an exception on the read "
                "stream is logged as a warning on the 'ferrymcp' logger"
            )
        self.read_stream = read_stream
        self.write_stream = write_stream
        self.is_stdio = stdio

    async def run(self, on_request: OnRequest, on_notify: OnNotify, *, task_status: Any = None) -> None:
        raise NotImplementedError(f"JSONRPCDispatcher.run(on_request, on_notify): {_ENGINE_OWNS}")

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]:
        raise NotImplementedError(f"JSONRPCDispatcher.send_raw_request({method!r}): {_ENGINE_OWNS}")

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
        raise NotImplementedError(f"JSONRPCDispatcher.notify({method!r}): {_ENGINE_OWNS}")


__all__ = ["JSONRPCDispatcher"]
