"""Streamable HTTP at the official path (`mcp.client.streamable_http`): 1.x's
`streamablehttp_client` (a 3-tuple with `get_session_id`) and 2.x's
`streamable_http_client`, each yielding a pair for `ClientSession`.

The engine speaks both eras over one URL, keeps one pooled connection, and ends a legacy
session with DELETE when the session closes (`terminate_on_close`). What it does not take
(an `httpx.Auth`, an `httpx` client or factory, `terminate_on_close=False`) is refused with
an error naming it; a bearer token goes in `headers` (`Authorization: Bearer ...`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from ferrymcp.client._streams import TransportStream


def _refuse(name: str, value: Any, default: Any = None) -> None:
    if value is not default:
        raise TypeError(
            f"{name}= is not supported by ferrymcp's HTTP client (the engine makes its own connections); "
            "send credentials as headers, e.g. headers={'Authorization': 'Bearer ...'}"
        )


def _seconds(value: float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _http_timeout(timeout: float | timedelta, default: float) -> None:
    if _seconds(timeout) != default:
        raise TypeError(
            f"timeout={timeout!r} is not supported by ferrymcp's HTTP client (it has no per-operation HTTP "
            "timeout); bound each request with read_timeout_seconds (ClientSession) or sse_read_timeout"
        )


def _session_id() -> str | None:
    raise NotImplementedError("ferrymcp does not expose the Mcp-Session-Id of a session yet")


@asynccontextmanager
async def streamablehttp_client(
    url: str,
    headers: dict[str, str] | None = None,
    timeout: float | timedelta = 30,
    sse_read_timeout: float | timedelta = 60 * 5,
    terminate_on_close: bool = True,
    httpx_client_factory: Callable[..., Any] | None = None,
    auth: Any = None,
) -> AsyncIterator[tuple[TransportStream, TransportStream, Callable[[], str | None]]]:
    """1.x: `(read, write, get_session_id)` for the server at `url`."""
    _refuse("httpx_client_factory", httpx_client_factory)
    _refuse("auth", auth)
    _refuse("terminate_on_close", terminate_on_close, True)
    _http_timeout(timeout, 30)
    stream = TransportStream(url, headers=dict(headers or {}), read_timeout=_seconds(sse_read_timeout))
    yield stream, stream, _session_id


@asynccontextmanager
async def streamable_http_client(
    url: str, *, http_client: Any = None, terminate_on_close: bool = True
) -> AsyncIterator[tuple[TransportStream, TransportStream, Callable[[], str | None]]]:
    """2.x: `(read, write, get_session_id)` for the server at `url`."""
    _refuse("http_client", http_client)
    _refuse("terminate_on_close", terminate_on_close, True)
    stream = TransportStream(url)
    yield stream, stream, _session_id


__all__ = ["streamable_http_client", "streamablehttp_client"]
