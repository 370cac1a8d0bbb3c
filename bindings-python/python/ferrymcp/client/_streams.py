"""The `(read, write)` pair that `stdio_client`, `streamablehttp_client` and `sse_client`
yield, as the official SDK's do.

The official pair is two memory streams of `SessionMessage` that a `ClientSession` reads
and writes while a transport task moves the bytes. ferrymcp's engine is the transport and
the session at once, so its pair carries only where to connect: `ClientSession`
recognises it and opens the connection itself, with no Python in the message path.
Reading or writing the pair directly is refused with an error that says so.
"""

from __future__ import annotations

from typing import Any

_DIRECT = (
    "this stream belongs to a ferrymcp transport: hand it to ferrymcp.client.session.ClientSession, "
    "which talks to the server through the engine (ferrymcp does not pass messages through Python streams)"
)


class TransportStream:
    """One half of a ferrymcp transport pair: the server to connect to."""

    def __init__(
        self,
        target: Any,
        headers: dict[str, str] | None = None,
        read_timeout: float | None = None,
        auth: Any = None,
        tls: dict[str, Any] | None = None,
        http_client: Any = None,
    ) -> None:
        self.target = target
        # 2.x's `http_client=`: the httpx client that carries every request.
        self.http_client = http_client
        self.headers = headers
        # An `OAuthClientProvider`, checked by the transport that made the pair.
        self.auth = auth
        # `ca_file` and `client_cert` for an https:// server (see `ferrymcp.client.Client`).
        self.tls = tls or {}
        # How long a request may wait for its answer unless the session says otherwise
        # (the official HTTP clients' `sse_read_timeout`).
        self.read_timeout = read_timeout

    async def send(self, message: Any) -> None:
        raise TypeError(_DIRECT)

    async def receive(self) -> Any:
        raise TypeError(_DIRECT)

    def __aiter__(self) -> Any:
        raise TypeError(_DIRECT)

    async def aclose(self) -> None:
        return None
