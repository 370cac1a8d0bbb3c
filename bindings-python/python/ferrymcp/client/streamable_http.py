"""Streamable HTTP at the official path (`mcp.client.streamable_http`): 1.x's
`streamablehttp_client` (a 3-tuple with `get_session_id`) and 2.x's
`streamable_http_client`, each yielding a pair for `ClientSession`.

The engine speaks both eras over one URL, keeps one pooled connection, and ends a legacy
session with DELETE when the session closes (`terminate_on_close`). OAuth is
`ferrymcp.client.auth.OAuthClientProvider`: 1.x's `auth=`, or the `auth` of the httpx client
given to 2.x's `http_client=` (whose headers and read timeout are honoured too; what the
engine cannot do for it is refused by name, see `_from_http_client`). What it does not take
(another `httpx.Auth`, an `httpx` client factory, `terminate_on_close=False`) is refused
with an error naming it; a bearer token goes in `headers` (`Authorization: Bearer ...`).
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


def _check_auth(auth: Any) -> Any:
    if auth is not None:
        from ferrymcp.client.auth.oauth2 import engine_oauth

        engine_oauth(auth)
    return auth


def _from_http_client(client: Any) -> tuple[dict[str, str], float | None, Any]:
    """The headers, read timeout and auth of 2.x's `http_client` (an `httpx.AsyncClient` or
    `httpx2.AsyncClient`). The engine makes its own connections, so what only the httpx
    client could do (its own transport, proxies, cookies, hooks, a base URL, parameters) is
    refused by name."""
    try:
        module = __import__(type(client).__module__.split(".")[0])
        default = module.AsyncClient()
    except Exception as error:
        raise TypeError(
            f"http_client={type(client).__name__} is not supported by ferrymcp: it takes an httpx.AsyncClient"
        ) from error
    refused = []
    if getattr(client, "_mounts", None):
        refused.append("mounts/proxy")
    if type(getattr(client, "_transport", None)) is not type(getattr(default, "_transport", None)):
        refused.append("transport")
    if len(getattr(client, "cookies", ())):
        refused.append("cookies")
    hooks = getattr(client, "event_hooks", {}) or {}
    if any(hooks.get(kind) for kind in hooks):
        refused.append("event_hooks")
    if str(getattr(client, "base_url", "")):
        refused.append("base_url")
    if str(getattr(client, "params", "")):
        refused.append("params")
    if refused:
        raise TypeError(
            f"http_client with {', '.join(refused)} is not supported by ferrymcp (the engine makes its own "
            "connections); it honours the client's headers, read timeout and OAuthClientProvider auth"
        )
    defaults = dict(default.headers.items())
    headers = {key: value for key, value in client.headers.items() if defaults.get(key) != value}
    read = getattr(getattr(client, "timeout", None), "read", None)
    return headers, read, _check_auth(getattr(client, "auth", None))


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
    _refuse("terminate_on_close", terminate_on_close, True)
    _http_timeout(timeout, 30)
    stream = TransportStream(
        url, headers=dict(headers or {}), read_timeout=_seconds(sse_read_timeout), auth=_check_auth(auth)
    )
    yield stream, stream, _session_id


@asynccontextmanager
async def streamable_http_client(
    url: str, *, http_client: Any = None, terminate_on_close: bool = True
) -> AsyncIterator[tuple[TransportStream, TransportStream, Callable[[], str | None]]]:
    """2.x: `(read, write, get_session_id)` for the server at `url`."""
    _refuse("terminate_on_close", terminate_on_close, True)
    if http_client is None:
        stream = TransportStream(url)
    else:
        headers, read_timeout, auth = _from_http_client(http_client)
        stream = TransportStream(url, headers=headers, read_timeout=read_timeout, auth=auth)
    yield stream, stream, _session_id


__all__ = ["streamable_http_client", "streamablehttp_client"]
