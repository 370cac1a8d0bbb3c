"""The `Transport` protocol of the official SDK (`mcp.client.Transport`): anything `Client`
takes that is an async context manager yielding a `(read_stream, write_stream)` pair of
`SessionMessage` streams, such as `stdio_client(...)`, `streamable_http_client(...)` or a
transport of the program's own. ferrymcp's `Client` drives such a pair through the same
engine as a pipe (see the README's "Streams the program made")."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

__all__ = ["ReadStream", "Transport", "TransportStreams", "WriteStream"]

if TYPE_CHECKING:
    from anyio.abc import ObjectReceiveStream, ObjectSendStream

    from ferrymcp.shared.message import SessionMessage

    ReadStream = ObjectReceiveStream[SessionMessage | Exception]
    WriteStream = ObjectSendStream[SessionMessage]
    TransportStreams = tuple[ReadStream, WriteStream]
else:
    # The two ends' official names, for annotations (anyio is not imported to run).
    ReadStream = Any
    WriteStream = Any
    TransportStreams = tuple[Any, Any]


class Transport(AbstractAsyncContextManager[TransportStreams], Protocol):
    """An async context manager yielding the read and write streams of one connection."""
