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


def _from_http_client(client: Any, url: str) -> tuple[str, dict[str, str], float | None, Any]:
    """The URL, headers, read timeout and auth of 2.x's `http_client` (an `httpx.AsyncClient`
    or `httpx2.AsyncClient`). The engine makes its own connections, so what only the httpx
    client could do (its own transport, proxies, cookies, hooks, parameters) is refused by
    name. A `base_url` is applied to `url` as httpx applies it (an absolute `url` keeps its
    own). An `httpx.Auth` other than an `OAuthClientProvider` is taken when its flow only
    sets headers on a request (a static bearer token, `BasicAuth`): it runs once, here, and
    the headers it set go with every request; one that needs a response is refused."""
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
        url = str(client._merge_url(url))
    if str(getattr(client, "params", "")):
        refused.append("params")
    if _tls_differs(client, default):
        refused.append("verify/cert (pass ferrymcp's ca_file= and client_cert= instead)")
    if refused:
        raise TypeError(
            f"http_client with {', '.join(refused)} is not supported by ferrymcp (the engine makes its own "
            "connections); it honours the client's headers, read timeout and OAuthClientProvider auth"
        )
    defaults = dict(default.headers.items())
    headers = {key: value for key, value in client.headers.items() if defaults.get(key) != value}
    read = getattr(getattr(client, "timeout", None), "read", None)
    auth = getattr(client, "auth", None)
    if auth is not None and not _is_oauth_provider(auth):
        headers.update(_static_auth_headers(module, auth, url))
        auth = None
    return url, headers, read, _check_auth(auth)


def _is_oauth_provider(auth: Any) -> bool:
    from ferrymcp.client.auth.oauth2 import _EngineAuth

    return isinstance(auth, _EngineAuth)


def _static_auth_headers(module: Any, auth: Any, url: str) -> dict[str, str]:
    """The headers an `httpx.Auth` whose flow only decorates the request sets (see
    `_from_http_client`); any other auth is refused by name."""
    refusal = TypeError(
        f"http_client auth={type(auth).__name__} is not supported by ferrymcp: the engine makes its own "
        "requests, so it takes an OAuthClientProvider, or an httpx.Auth that only sets headers without "
        "reading a response (such as a static bearer token)"
    )
    if (
        getattr(auth, "requires_request_body", False)
        or getattr(auth, "requires_response_body", False)
        or isinstance(auth, getattr(module, "DigestAuth", ()))
    ):
        raise refusal
    # The flow must end after its first request whatever the answer, a challenge included.
    challenge = {"www-authenticate": 'Bearer realm="mcp", Digest realm="mcp", nonce="0", Basic realm="mcp"'}
    seen: list[dict[str, str]] = []
    for status, answer_headers in ((200, {}), (401, challenge)):
        request = module.Request("POST", url)
        before = dict(request.headers.items())
        flow = auth.sync_auth_flow(request)
        try:
            sent = next(flow, request)
            flow.send(module.Response(status, headers=answer_headers, request=sent))
        except StopIteration:
            seen.append({key: value for key, value in sent.headers.items() if before.get(key) != value})
            continue
        except Exception as error:
            raise refusal from error
        raise refusal
    if seen[0] != seen[1]:
        raise refusal
    return seen[0]


def _tls_differs(client: Any, default: Any) -> bool:
    """Whether the httpx client verifies differently from a default one (its `verify=`:
    off, or another CA store), as far as its SSL context tells."""

    def context(c: Any) -> Any:
        return getattr(getattr(getattr(c, "_transport", None), "_pool", None), "_ssl_context", None)

    ours, plain = context(client), context(default)
    if ours is None or plain is None:
        return False
    return bool(
        ours.verify_mode != plain.verify_mode
        or ours.check_hostname != plain.check_hostname
        or ours.cert_store_stats() != plain.cert_store_stats()
    )


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
        url, headers, read_timeout, auth = _from_http_client(http_client, url)
        stream = TransportStream(url, headers=headers, read_timeout=read_timeout, auth=auth, tls=tls)
    yield stream, stream, _session_id


__all__ = ["streamable_http_client", "streamablehttp_client"]
