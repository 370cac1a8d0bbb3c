"""`sse_client` at the official path (`mcp.client.sse`): a server of the deprecated
HTTP+SSE transport. The engine's HTTP client tries Streamable HTTP at the URL first and
falls back to HTTP+SSE as the spec describes, so the same URL works for either server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ferrymcp.client._streams import TransportStream
from ferrymcp.client.streamable_http import _check_auth, _http_timeout, _refuse, _seconds, tls_options


@asynccontextmanager
async def sse_client(
    url: str,
    headers: dict[str, Any] | None = None,
    timeout: float = 5,
    sse_read_timeout: float = 60 * 5,
    httpx_client_factory: Any = None,
    auth: Any = None,
    *,
    ca_file: Any = None,
    client_cert: Any = None,
) -> AsyncIterator[tuple[TransportStream, TransportStream]]:
    """`(read, write)` for the HTTP+SSE server at `url`; `ca_file` and `client_cert`
    (ferrymcp) as `ferrymcp.client.streamable_http.tls_options` says."""
    _refuse("httpx_client_factory", httpx_client_factory)
    _http_timeout(timeout, 5)
    fields = {key: str(value) for key, value in (headers or {}).items()}
    tls = tls_options(ca_file, client_cert)
    stream = TransportStream(
        url, headers=fields, read_timeout=_seconds(sse_read_timeout), auth=_check_auth(auth), tls=tls
    )
    yield stream, stream


__all__ = ["sse_client"]
