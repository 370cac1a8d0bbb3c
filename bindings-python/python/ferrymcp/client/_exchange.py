"""The program's own httpx client carrying the engine's HTTP requests (2.x's
`streamable_http_client(url, http_client=...)`, see `src/exchange.rs`).

The engine decides each request (method, URL, headers, body) and reads each response;
`send` only moves them through the httpx client, so what that client does by itself (an
`ASGITransport`, mounts, proxies, event hooks, cookies, its own `httpx.Auth`) applies as
with the official client. An `OAuthClientProvider` is the engine's to run: the request is
then sent without the client's auth (the engine has put the token on it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

# Headers that describe the body as httpx received it; the engine gets it decoded.
_DECODED = frozenset({"content-encoding", "content-length", "transfer-encoding"})


def sender(client: Any, engine_auth: bool) -> Callable[..., Awaitable[None]]:
    """The `send(method, url, headers, body, sink)` the engine calls for each request."""
    options: dict[str, Any] = {"auth": None} if engine_auth else {}

    async def send(method: str, url: str, headers: list[tuple[str, bytes]], body: bytes, sink: Any) -> None:
        request = client.build_request(method, url, headers=headers, content=body or None)
        response = await client.send(request, stream=True, **options)
        try:
            kept = [(name.decode("latin-1"), value) for name, value in response.headers.raw]
            if not sink.head(response.status_code, [(n, v) for n, v in kept if n.lower() not in _DECODED]):
                return
            async for chunk in response.aiter_bytes():
                if chunk and not sink.chunk(chunk):
                    return
        except BaseException as error:
            sink.end(f"reading the response of {method} {url} failed: {error!r}")
            raise
        finally:
            await response.aclose()
        sink.end()

    return send
