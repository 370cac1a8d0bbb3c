"""In-memory stream pairs (`mcp.shared.memory`): a client's and a server's `(read, write)`
streams wired to each other, and the 1.x helper that connects a `ClientSession` to a server
through them.

The streams are anyio memory object streams of `SessionMessage`, as the official ones are
(anyio is needed for them: `pip install anyio`). A ferrymcp `ClientSession` or
`Server.run()` given such a pair carries its messages to and from the engine
(`ferrymcp._carried`), so either end may also be the official SDK's.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

MessageStream = tuple[Any, Any]


def _anyio() -> Any:
    try:
        import anyio
    except ImportError as exc:  # pragma: no cover - anyio ships with most async stacks
        raise ImportError("ferrymcp.shared.memory needs anyio for its memory streams: pip install anyio") from exc
    return anyio


@asynccontextmanager
async def create_client_server_memory_streams() -> AsyncGenerator[tuple[MessageStream, MessageStream], None]:
    """`(client_streams, server_streams)`, each a `(read_stream, write_stream)` pair: what
    the client writes the server reads, and the other way round. Closed on exit."""
    anyio = _anyio()
    server_to_client_send, server_to_client_receive = anyio.create_memory_object_stream(1)
    client_to_server_send, client_to_server_receive = anyio.create_memory_object_stream(1)
    client_streams = (server_to_client_receive, client_to_server_send)
    server_streams = (client_to_server_receive, server_to_client_send)
    async with server_to_client_receive, client_to_server_send, client_to_server_receive, server_to_client_send:
        yield client_streams, server_streams


@asynccontextmanager
async def create_connected_server_and_client_session(
    server: Any,
    read_timeout_seconds: timedelta | float | None = None,
    sampling_callback: Any = None,
    list_roots_callback: Any = None,
    logging_callback: Any = None,
    message_handler: Any = None,
    client_info: Any = None,
    raise_exceptions: bool = False,
    elicitation_callback: Any = None,
) -> AsyncGenerator[Any, None]:
    """A `ClientSession`, initialized, connected through memory streams to `server` (a
    low-level `Server`, or an `MCPServer`/`FastMCP`) running beside it (the 1.x helper)."""
    from ferrymcp.client.session import ClientSession
    from ferrymcp.server.lowlevel.server import Server

    if raise_exceptions:
        raise NotImplementedError("create_connected_server_and_client_session(raise_exceptions=True) in ferrymcp")
    anyio = _anyio()
    async with create_client_server_memory_streams() as (client_streams, server_streams):
        client_read, client_write = client_streams
        server_read, server_write = server_streams
        async with anyio.create_task_group() as tg:
            if isinstance(server, Server):
                tg.start_soon(server.run, server_read, server_write, server.create_initialization_options())
            else:
                tg.start_soon(server.run_streams_async, server_read, server_write)
            try:
                async with ClientSession(
                    client_read,
                    client_write,
                    read_timeout_seconds=read_timeout_seconds,
                    sampling_callback=sampling_callback,
                    list_roots_callback=list_roots_callback,
                    logging_callback=logging_callback,
                    message_handler=message_handler,
                    client_info=client_info,
                    elicitation_callback=elicitation_callback,
                ) as session:
                    await session.initialize()
                    yield session
            finally:
                tg.cancel_scope.cancel()


__all__ = ["MessageStream", "create_client_server_memory_streams", "create_connected_server_and_client_session"]
