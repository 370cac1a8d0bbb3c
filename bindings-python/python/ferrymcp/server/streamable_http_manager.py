"""Streamable HTTP as an ASGI app: `mcp.streamable_http_app()` and `mcp.session_manager`.

The official SDK returns a Starlette app whose lifespan runs `mcp.session_manager.run()`;
mounted inside another app (Starlette's `Mount`, FastAPI's `app.mount`), a sub-app's
lifespan never runs, so its documentation has the host app's lifespan enter
`mcp.session_manager.run()` itself. Both work the same here. The endpoint is core's
`HttpHandler`: this module only carries ASGI messages to it and back. The request body is
read whole (core reads it whole too, and refuses it past the size limit with 413); the
response is sent whole when core has it whole (JSON), else event by event as core
produces them (SSE); a client that disconnects (`http.disconnect`) closes core's side of
the response, which cancels a 2026-07-28 request, as the specification says.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import asyncio

    from ferrymcp._native import HttpOptions, NativeHttpHandler, NativeResponseBody
    from ferrymcp.server.mcpserver import MCPServer

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
T = TypeVar("T")

# The ASGI app carries each request with asyncio tasks; under trio (an ASGI server such as
# hypercorn's trio worker) it refuses, where it would otherwise fail on its first request.
_ASGI_UNDER_TRIO = "ferrymcp's ASGI app (streamable_http_app(), its session_manager.run())"


class StreamableHTTPSessionManager:
    """Runs the endpoint of one server; `run()` must be entered before requests come."""

    def __init__(
        self,
        server: MCPServer[Any] | None = None,
        options: HttpOptions | None = None,
        *,
        app: MCPServer[Any] | None = None,
        event_store: Any = None,
        json_response: bool = False,
        stateless: bool = False,
        security_settings: Any = None,
        retry_interval: int | None = None,
        session_idle_timeout: float | None = None,
    ) -> None:
        # The official constructor (`StreamableHTTPSessionManager(app=server, ...)`, its
        # `handle_request` mounted where the application likes: every request it gets is
        # the endpoint's), or the server's own (`streamable_http_app()`: server and options).
        self._any_path = app is not None
        if app is not None:
            if server is not None or options is not None:
                raise TypeError("StreamableHTTPSessionManager takes app= or (server, options), not both")
            from ferrymcp.server.mcpserver.server import _endpoint_options

            official = {
                "event_store": event_store,
                "json_response": json_response,
                "stateless_http": stateless,
                "transport_security": security_settings,
                "retry_interval": retry_interval,
                "session_idle_timeout": session_idle_timeout,
            }
            chosen = app._http_settings(official, "StreamableHTTPSessionManager()")
            server, options = app, _endpoint_options(chosen, app._bearer(), None)
        if server is None or options is None:
            raise TypeError("StreamableHTTPSessionManager() needs app=, the server it serves")
        from ferrymcp.server.experimental._store_bridge import note_http_mode

        note_http_mode(server, options)
        self._server = server
        self._options = options
        self._handler: NativeHttpHandler | None = None
        self._ran = False

    @asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Serves inside the server's lifespan; on exit ends streams and sessions."""
        if self._ran:
            raise RuntimeError(
                "StreamableHTTPSessionManager .run() can only be called once per instance. "
                "Create a new instance if you need to run again."
            )
        from ferrymcp import _aio

        _aio.unsupported_under_trio(_ASGI_UNDER_TRIO)
        self._ran = True
        async with self._server._serving() as native:
            self._handler = native.http_handler(self._options)
            try:
                yield
            finally:
                handler, self._handler = self._handler, None
                await handler.shutdown()

    async def handle_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answers one HTTP request of the ASGI server."""
        handler = self._handler
        if handler is None:
            await self._before_run(scope, receive, send)
            return
        await self._answer(handler, scope, receive, send)

    async def _before_run(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A request before `run()`. The official app checks the bearer token and serves the
        protected resource metadata in front of the session manager, so those answers come
        without `run()`; everything else is the official `RuntimeError`. Here the engine makes
        both answers: a stand-in server with the same endpoint options and nothing registered
        (no tool, no lifespan) answers the request, and only its answer from the token check
        (a refusal carrying `WWW-Authenticate`) or for the metadata document is sent."""
        not_running = RuntimeError(
            "Task group is not initialized. Make sure to use run(). (The MCP endpoint is not running: enter "
            "`mcp.session_manager.run()`; the app's lifespan does.)"
        )
        from ferrymcp import _aio

        _aio.unsupported_under_trio(_ASGI_UNDER_TRIO)
        auth = self._options.get("auth")
        if auth is None:
            raise not_running
        from ferrymcp._native import NativeServer, metadata_path

        resource = auth.get("resource")
        metadata = None if resource is None else metadata_path(str(resource), self._options["endpoint"])
        stand_in = NativeServer(self._server._server_info()).http_handler(self._options)
        sent: list[Message] = []

        async def keep(message: Message) -> None:
            sent.append(message)

        try:
            await self._answer(stand_in, scope, receive, keep)
        finally:
            await stand_in.shutdown()
        start = next((message for message in sent if message["type"] == "http.response.start"), None)
        if start is None:
            return  # the client left
        challenged = any(bytes(name).lower() == b"www-authenticate" for name, _ in start.get("headers", ()))
        if not challenged and _route_path(scope) != metadata:
            raise not_running
        for message in sent:
            await send(message)

    async def _answer(self, handler: NativeHttpHandler, scope: Scope, receive: Receive, send: Send) -> None:
        """Carries one HTTP request to `handler` and its answer back."""
        body = await _read_body(receive, handler.max_body)
        if body is None:
            return
        headers = [(bytes(name), bytes(value)) for name, value in scope.get("headers", ())]
        import asyncio

        from ferrymcp import _logs

        query = scope.get("query_string", b"")
        path = self._options["endpoint"] if self._any_path else _route_path(scope)
        target = path + ("?" + query.decode("latin-1") if query else "")
        disconnected = asyncio.ensure_future(_disconnect(receive))
        try:
            answer = await _first(handler.handle(scope["method"], target, headers, body), disconnected)
            if answer is None:
                return
            status, head, payload = answer.result()
            _logs.drain()  # what core logged making this answer, logged before the client has it
            await send({"type": "http.response.start", "status": status, "headers": head})
            if isinstance(payload, bytes):
                await send({"type": "http.response.body", "body": payload})
            else:
                await _stream(payload, disconnected, send)
        finally:
            disconnected.cancel()


async def _first(work: Awaitable[T], disconnected: asyncio.Future[None]) -> asyncio.Future[T] | None:
    """Waits for `work` unless the client goes first (then `work` is cancelled and this
    is `None`); the future of `work`, done, otherwise."""
    import asyncio

    future = asyncio.ensure_future(work)
    either: set[asyncio.Future[Any]] = {future, disconnected}
    await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    if future.done():
        return future
    future.cancel()
    return None


async def _stream(body: NativeResponseBody, disconnected: asyncio.Future[None], send: Send) -> None:
    try:
        while True:
            chunk = await _first(body.next(), disconnected)
            if chunk is None:
                return
            data = chunk.result()
            if data is None:
                await send({"type": "http.response.body", "body": b""})
                return
            await send({"type": "http.response.body", "body": data, "more_body": True})
    finally:
        body.close()


async def _disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body (`None` if the client left); reading stops past `limit`, and core
    answers 413 for what it got."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False) or size > limit:
            return b"".join(chunks)


def _route_path(scope: Scope) -> str:
    """The path within the app when mounted under a prefix (Starlette's `root_path`)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] in ("/", ""):
        return path[len(root) :] or "/"
    return path


class StreamableHTTPApp:
    """The ASGI app of `mcp.streamable_http_app()`: the MCP endpoint, the server's
    custom routes, and a lifespan that runs the session manager."""

    def __init__(self, session_manager: StreamableHTTPSessionManager, routes: list[Any]) -> None:
        self.session_manager = session_manager
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1000})
            return
        if self.routes:
            from starlette.routing import Match

            for route in self.routes:
                if route.matches(scope)[0] == Match.FULL:
                    await route.handle(scope, receive, send)
                    return
        await self.session_manager.handle_request(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        await receive()
        started = False
        try:
            async with self.session_manager.run():
                started = True
                await send({"type": "lifespan.startup.complete"})
                await receive()
        except Exception as exc:
            failed = "lifespan.shutdown.failed" if started else "lifespan.startup.failed"
            await send({"type": failed, "message": f"{type(exc).__name__}: {exc}"})
            return
        await send({"type": "lifespan.shutdown.complete"})


class _Endpoint:
    """The MCP endpoint as the ASGI app of a Starlette `Route` (as the official
    `StreamableHTTPASGIApp`)."""

    def __init__(self, session_manager: StreamableHTTPSessionManager) -> None:
        self.session_manager = session_manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.session_manager.handle_request(scope, receive, send)


def starlette_app(
    session_manager: StreamableHTTPSessionManager,
    path: str,
    metadata: str | None,
    routes: list[Any],
    debug: bool = False,
    served: list[str] | None = None,
) -> Any | None:
    """The official shape of `streamable_http_app()` when Starlette is installed: a
    `Starlette` app with a `Route` for the endpoint (and, with auth, one for its protected
    resource metadata at `metadata`, which the engine serves too), the custom routes, and a lifespan that
    runs the session manager; `None` without Starlette."""
    try:
        from starlette.applications import Starlette
        from starlette.routing import Route
    except ImportError:
        return None
    endpoint = _Endpoint(session_manager)
    routed = [Route(path, endpoint=endpoint)]
    if metadata is not None:
        routed.append(Route(metadata, endpoint=endpoint))
    # The engine's authorization server, when there is one, answers its own paths too.
    routed.extend(Route(path, endpoint=endpoint) for path in served or [])
    return Starlette(debug=debug, routes=[*routed, *routes], lifespan=lambda app: session_manager.run())


def custom_routes(routes: list[tuple[str, list[str], Callable[..., Any]]]) -> list[Any]:
    """Starlette routes for `@mcp.custom_route` handlers (Starlette is needed only then)."""
    if not routes:
        return []
    from starlette.routing import Route

    return [Route(path, endpoint=handler, methods=methods) for path, methods, handler in routes]


RouteAnswer = tuple[int, list[tuple[bytes, bytes]], bytes]


def route_answerer(routes: list[Any], scheme: str) -> Callable[..., Awaitable[RouteAnswer | None]]:
    """The `@mcp.custom_route`s (Starlette routes) for the engine's own HTTP server: the
    engine hands each request for a path its endpoint does not own (method, path, query,
    headers, the whole body) to the returned function, which runs the route that matches
    it as Starlette's router would (a route matching the path but not the method answers
    405) and gives back the whole answer; `None` when no route takes the path (the engine
    answers 404). A route that raises is the engine's 500; its traceback is logged here."""
    import logging

    from starlette.routing import Match

    from ferrymcp import _aio

    async def answer(
        method: str, path: str, query: bytes, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> RouteAnswer | None:
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "method": method,
            "scheme": scheme,
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query,
            "headers": headers,
            "client": None,
            "server": None,
        }
        chosen: tuple[Any, dict[str, Any]] | None = None
        for route in routes:
            match, child = route.matches(scope)
            if match == Match.FULL:
                chosen = (route, child)
                break
            if match == Match.PARTIAL and chosen is None:
                chosen = (route, child)
        if chosen is None:
            return None
        route, child = chosen
        scope.update(child)
        delivered = False
        finished = _aio.event()  # asyncio's or trio's, as the engine's server runs

        async def receive() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await finished.wait()  # the client stays connected until the answer is whole
            return {"type": "http.disconnect"}

        status, head, chunks = 500, [], []

        async def send(message: Message) -> None:
            nonlocal status, head
            if message["type"] == "http.response.start":
                status = int(message["status"])
                head = [(bytes(name), bytes(value)) for name, value in message.get("headers", ())]
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        try:
            await route.handle(scope, receive, send)
        except Exception:
            logging.getLogger("ferrymcp.server").exception("custom route %s %s failed", method, path)
            raise
        finally:
            finished.set()
        return status, head, b"".join(chunks)

    return answer
