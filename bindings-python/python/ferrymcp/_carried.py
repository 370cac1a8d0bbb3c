"""Streams a program made, carried to and from the engine.

The official SDK's sessions read and write two memory streams of `SessionMessage`
(`read_stream` yields what the peer sent, `write_stream` takes what goes to the peer), and
a transport task of the program's own moves them over whatever it likes: a WebSocket, a
socket, or another session's streams in the same process. `ClientSession(read, write)` and
`Server.run(read, write, ...)` accept such a pair: its messages go through a native port
(`NativePort`) into the same engine that serves stdio and HTTP, so the protocol (eras,
correlation, cancellation, timeouts) is the engine's whichever way the bytes travel.

The messages written to `write_stream` are ferrymcp's `SessionMessage`s of
`ferrymcp.types` envelopes, unless the official SDK's session machinery is loaded in this
process (`mcp.shared.message`): then they are the official classes, so an official session
or server on the other end of the streams (which matches messages by class) reads them too.
A transport serialises either kind the same way (`message.model_dump_json(...)`).
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

from ferrymcp._jsonrpc import jsonrpc_message_adapter
from ferrymcp.shared.message import SessionMessage

logger = logging.getLogger("ferrymcp")


def is_stream_pair(read_stream: Any, write_stream: Any) -> bool:
    """Whether `(read_stream, write_stream)` look like the official pair of memory streams."""
    return callable(getattr(read_stream, "receive", None)) and callable(getattr(write_stream, "send", None))


def message_json(item: Any) -> str:
    """The JSON text of a `SessionMessage`, of a JSON-RPC message model (ferrymcp's, or the
    official SDK's pydantic ones, root models included), or of a plain dict."""
    is_session_message = isinstance(item, SessionMessage) or type(item).__name__ == "SessionMessage"
    message = item.message if is_session_message else item
    message = getattr(message, "root", message)
    if hasattr(message, "model_dump_json"):
        return str(message.model_dump_json(by_alias=True, exclude_none=True))
    if isinstance(message, dict):
        return json.dumps(message, ensure_ascii=False)
    raise TypeError(f"not a JSON-RPC message: {type(message).__name__}")


def session_message(text: str) -> Any:
    """The engine's message `text` as a `SessionMessage` (see the module doc for which)."""
    official = sys.modules.get("mcp.shared.message")
    if official is not None:
        try:
            from mcp_types import jsonrpc_message_adapter as official_adapter  # the official 2.x

            return official.SessionMessage(official_adapter.validate_json(text))
        except ImportError:
            import importlib

            root: Any = importlib.import_module("mcp.types").JSONRPCMessage  # the official 1.x: a root model
            return official.SessionMessage(root.model_validate_json(text))
    return SessionMessage(jsonrpc_message_adapter.validate_json(text))


class StreamPair:
    """A `(read_stream, write_stream)` pair as a client's target (see `ClientSession`)."""

    def __init__(self, read_stream: Any, write_stream: Any) -> None:
        self.read_stream = read_stream
        self.write_stream = write_stream


class Carrier:
    """Moves messages between a stream pair and a native port until either side ends.

    `start()` starts two tasks on the running loop: one reads `read_stream` into the port
    (the end of the stream closes the port, which the engine sees as the end of its
    input), one writes the engine's messages to `write_stream` as `SessionMessage`s (the
    engine closing its side closes `write_stream`). `stop()` ends both.
    """

    def __init__(self, port: Any, read_stream: Any, write_stream: Any) -> None:
        self._port = port
        self._read = read_stream
        self._write = write_stream
        self._tasks: list[Any] = []

    def start(self) -> None:
        from ferrymcp import _aio  # asyncio's tasks, or trio's (`ferrymcp._trio`)

        self._tasks = [_aio.spawn(self._inbound()), _aio.spawn(self._outbound())]

    async def _inbound(self) -> None:
        try:
            while True:
                try:
                    item = await self._read.receive()
                except Exception as exc:  # anyio's EndOfStream / ClosedResourceError end the stream
                    if type(exc).__name__ in ("EndOfStream", "ClosedResourceError", "BrokenResourceError"):
                        return
                    raise
                if isinstance(item, Exception):
                    # The official transports put errors on the stream; the session logs them.
                    logger.warning("transport error on a carried stream: %r", item)
                    continue
                try:
                    text = message_json(item)
                except (TypeError, ValueError) as exc:
                    logger.warning("dropped a message that is not JSON-RPC from a carried stream: %s", exc)
                    continue
                if not self._port.send(text):
                    return
        finally:
            self._port.close()

    async def _outbound(self) -> None:
        try:
            from ferrymcp import _aio

            while (text := await _aio.background(self._port.recv())) is not None:
                await self._write.send(session_message(text))
        except Exception as exc:
            if type(exc).__name__ not in ("ClosedResourceError", "BrokenResourceError"):
                raise
        finally:
            close = getattr(self._write, "aclose", None)
            if close is not None:
                await close()

    async def stop(self) -> None:
        """Ends the way in (the engine sees the end of its input), then waits for the
        engine's last messages to reach `write_stream`."""
        import asyncio

        from ferrymcp import _aio

        self._port.close()
        if not self._tasks:
            return
        inbound, outbound = self._tasks
        inbound.cancel()
        for task in (inbound, outbound):
            try:
                # Finished also when the scope that stops it was cancelled (trio).
                await _aio.uncancelled(_aio.wait_for(task, 5) if task is outbound else task)
            except (asyncio.CancelledError, asyncio.TimeoutError, TimeoutError):
                pass
            except Exception as exc:
                logger.warning("a carried stream ended with %r", exc)
