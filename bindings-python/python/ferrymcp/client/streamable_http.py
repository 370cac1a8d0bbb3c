"""Streamable HTTP at the official path (`mcp.client.streamable_http`): 1.x's
`streamablehttp_client` (a 3-tuple with `get_session_id`) and 2.x's
`streamable_http_client`, each yielding a pair for `ClientSession`.

The engine speaks both eras over one URL, keeps one pooled connection, and ends a legacy
session with DELETE when the session closes (`terminate_on_close`). OAuth is
`ferrymcp.client.auth.OAuthClientProvider`: 1.x's `auth=`, or the `auth` of the httpx client
given to 2.x's `http_client=`. An httpx client given to `http_client=` carries every request
(`ferrymcp.client._exchange`): its transport, mounts, proxies, verify, cookies, hooks,
headers and auth apply as they do for the official client. What 1.x's function does not
take (another `httpx.Auth`, an `httpx` client factory, `terminate_on_close=False`) is
refused with an error naming it; a bearer token goes in `headers`
(`Authorization: Bearer ...`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from os import PathLike
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


def _through_http_client(client: Any, url: str) -> tuple[str, float | None, Any]:
    """The URL, read timeout and engine auth for 2.x's `http_client` (an `httpx.AsyncClient`
    or `httpx2.AsyncClient`). Every request then goes through that client (see
    `ferrymcp.client._exchange`), so its transport, mounts, proxies, verify, cookies, hooks,
    headers and `httpx.Auth` apply as they do for the official client. A `base_url` is
    applied to `url` as httpx applies it. An `OAuthClientProvider` (or
    `IdentityAssertionOAuthProvider`) as the client's `auth` is run by the engine, whose
    authorization requests then go through the same client."""
    if not (callable(getattr(client, "send", None)) and callable(getattr(client, "build_request", None))):
        raise TypeError(
            f"http_client={type(client).__name__} is not supported by ferrymcp: it takes an httpx.AsyncClient"
        )
    if str(getattr(client, "base_url", "")):
        url = str(client._merge_url(url))
    read = getattr(getattr(client, "timeout", None), "read", None)
    auth = getattr(client, "auth", None)
    if auth is not None and not _is_oauth_provider(auth):
        auth = None
    return url, read, _check_auth(auth)


def _is_oauth_provider(auth: Any) -> bool:
    from ferrymcp.client.auth.oauth2 import _EngineAuth

    return isinstance(auth, _EngineAuth)


def tls_options(ca_file: Any = None, client_cert: Any = None) -> dict[str, Any]:
    """ferrymcp's TLS options for an https:// server, as `ferrymcp.client.Client` takes
    them: `ca_file`, a PEM bundle trusted instead of the platform's store (which honours
    SSL_CERT_FILE and SSL_CERT_DIR); `client_cert`, a (certificate chain, private key) pair
    of PEM files presented to a server that asks (mutual TLS). An httpx client's `verify=`
    and `cert=` cannot be read back from it: pass these instead."""
    options: dict[str, Any] = {}
    if ca_file is not None:
        options["ca_file"] = ca_file
    if client_cert is not None:
        if not (isinstance(client_cert, tuple) and len(client_cert) == 2):
            raise TypeError("client_cert= must be a (certificate file, key file) pair of PEM files")
        options["client_cert"] = client_cert
    return options


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
    *,
    ca_file: str | PathLike[str] | None = None,
    client_cert: tuple[str | PathLike[str], str | PathLike[str]] | None = None,
) -> AsyncIterator[tuple[TransportStream, TransportStream, Callable[[], str | None]]]:
    """1.x: `(read, write, get_session_id)` for the server at `url`. `ca_file` and
    `client_cert` (ferrymcp) set TLS as `tls_options` says."""
    _refuse("httpx_client_factory", httpx_client_factory)
    _refuse("terminate_on_close", terminate_on_close, True)
    _http_timeout(timeout, 30)
    stream = TransportStream(
        url,
        headers=dict(headers or {}),
        read_timeout=_seconds(sse_read_timeout),
        auth=_check_auth(auth),
        tls=tls_options(ca_file, client_cert),
    )
    yield stream, stream, _session_id


@asynccontextmanager
async def streamable_http_client(
    url: str,
    *,
    http_client: Any = None,
    terminate_on_close: bool = True,
    ca_file: str | PathLike[str] | None = None,
    client_cert: tuple[str | PathLike[str], str | PathLike[str]] | None = None,
) -> AsyncIterator[tuple[TransportStream, TransportStream, Callable[[], str | None]]]:
    """2.x: `(read, write, get_session_id)` for the server at `url`. `ca_file` and
    `client_cert` (ferrymcp) set TLS as `tls_options` says."""
    _refuse("terminate_on_close", terminate_on_close, True)
    tls = tls_options(ca_file, client_cert)
    if http_client is None:
        stream = TransportStream(url, tls=tls)
    else:
        if tls:
            raise TypeError(
                "ca_file= and client_cert= do not apply with http_client=: the httpx client makes the "
                "connections, so set its verify= and cert= instead"
            )
        url, read_timeout, auth = _through_http_client(http_client, url)
        stream = TransportStream(url, read_timeout=read_timeout, auth=auth, http_client=http_client)
    yield stream, stream, _session_id


__all__ = ["streamable_http_client", "streamablehttp_client"]
