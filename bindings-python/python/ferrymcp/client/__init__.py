"""`Client`: the official SDK's high-level client API on ferrymcp's engine.

    async with Client(target) as client:
        tools = await client.list_tools()
        result = await client.call_tool("add", {"a": 1, "b": 2})

The target is an `MCPServer` (connected in memory), an `http://` URL (Streamable HTTP,
either era, falling back to the deprecated HTTP+SSE transport of old servers; `headers`
and `bearer_token` go with every request), a command (a string split like a shell would,
or a list) or a `StdioServerParameters`-like object (anything with `command` and `args`),
started as a child process speaking stdio. The engine probes the
era (2026-07-28 or legacy) and does the protocol; this module turns results into the
types of `ferrymcp.types` and adapts the callbacks, which keep the official names and
signatures: `sampling_callback(context, params)`, `elicitation_callback(context,
params)`, `list_roots_callback(context)`, `logging_callback(params)`,
`message_handler(notification)`, and per-call `progress_callback(progress, total,
message)`. Per-call timeouts are `read_timeout_seconds`, as in the official API.
"""

from __future__ import annotations

import inspect
import os
import shlex
import warnings
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ferrymcp._carried import Carrier, StreamPair
from ferrymcp._wire import WireModel, coerce
from ferrymcp.client._transport import Transport as Transport
from ferrymcp.client.caching import CacheConfig, CacheMode
from ferrymcp.client.caching import CacheEntry as CacheEntry
from ferrymcp.client.caching import CacheKey as CacheKey
from ferrymcp.client.caching import InMemoryResponseCacheStore as InMemoryResponseCacheStore
from ferrymcp.client.caching import ResponseCacheStore as ResponseCacheStore
from ferrymcp.client.extension import ClaimContext as ClaimContext
from ferrymcp.client.extension import ClientExtension, declared_extensions
from ferrymcp.client.extension import NotificationBinding as NotificationBinding
from ferrymcp.client.extension import ResultClaim as ResultClaim
from ferrymcp.client.extension import UnexpectedClaimedResult as UnexpectedClaimedResult
from ferrymcp.client.extension import advertise as advertise
from ferrymcp.exceptions import InputRequiredRoundsExceededError as InputRequiredRoundsExceededError
from ferrymcp.exceptions import MCPDeprecationWarning, McpError
from ferrymcp.shared._otel import tracing_active
from ferrymcp.types import (
    SERVER_NOTIFICATIONS,
    CallToolResult,
    CompleteResult,
    CreateMessageRequestParams,
    DiscoverResult,
    ElicitRequestParams,
    EmptyResult,
    GetPromptResult,
    Implementation,
    InputResponses,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    LoggingMessageNotificationParams,
    Notification,
    PromptReference,
    ReadResourceResult,
    ResourceTemplateReference,
    ServerCapabilities,
)

if TYPE_CHECKING:
    from datetime import timedelta

    from ferrymcp._native import NativeClient
    from ferrymcp.client.experimental.tasks import ExperimentalClientFeatures
    from ferrymcp.client.session import ClientSession
    from ferrymcp.client.subscriptions import Subscription
    from ferrymcp.server.mcpserver import MCPServer

_T = TypeVar("_T", bound=WireModel)
_URL_PREFIXES = ("http://", "https://")
ProgressCallback = Callable[[float, "float | None", "str | None"], Awaitable[None]]


@dataclass
class StdioServerParameters:
    """A server to start as a child process and talk to over its stdin and stdout."""

    command: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    cwd: str | Path | None = None
    encoding: str = "utf-8"
    """MCP's stdio transport is UTF-8; any other value is refused when connecting."""
    encoding_error_handler: str = "strict"
    """Invalid UTF-8 is answered with a parse error ("strict"); other values are refused."""


@dataclass
class ClientRequestContext:
    """What a sampling, elicitation or roots callback gets with the request."""

    session: Client
    request_id: Any = None
    meta: dict[str, Any] | None = None


_DEFAULT_CACHE: Any = CacheConfig()


class Client:
    """A connection to one MCP server (see the module doc). `cache` configures the
    response cache (on by default; `None` turns it off); the cacheable verbs take a
    per-call `cache_mode`."""

    def __init__(
        self,
        server: MCPServer[Any] | str | Sequence[str] | Any,
        *,
        read_timeout_seconds: float | timedelta | None = None,
        sampling_callback: Callable[..., Awaitable[Any]] | None = None,
        sampling_capabilities: Any = None,
        elicitation_callback: Callable[..., Awaitable[Any]] | None = None,
        list_roots_callback: Callable[..., Awaitable[Any]] | None = None,
        logging_callback: Callable[[LoggingMessageNotificationParams], Awaitable[None]] | None = None,
        message_handler: Callable[[Any], Awaitable[None]] | None = None,
        log_level: str | None = None,
        client_info: Implementation | None = None,
        mode: str = "auto",
        raise_exceptions: bool = False,
        headers: Mapping[str, str] | None = None,
        bearer_token: str | None = None,
        extensions: Sequence[ClientExtension] | None = None,
        cache: CacheConfig | None = _DEFAULT_CACHE,
        ca_file: str | os.PathLike[str] | None = None,
        client_cert: tuple[str | os.PathLike[str], str | os.PathLike[str]] | None = None,
        prior_discover: DiscoverResult | None = None,
    ) -> None:
        _check_mode(mode)
        if prior_discover is not None and not isinstance(prior_discover, DiscoverResult):
            raise TypeError(f"prior_discover must be a DiscoverResult, not {type(prior_discover).__name__}")
        # A saved `server/discover` result, adopted (nothing asked) when `mode` pins a
        # 2026-07-28 version; under "auto" and "legacy" it is ignored, as there.
        self.prior_discover = prior_discover
        self.cache = CacheConfig() if cache is _DEFAULT_CACHE else cache
        if self.cache is not None and self.cache.store is not None and self.cache.target_id is None:
            if not isinstance(server, str):
                # The official check at construction: only a URL names the target on its own.
                raise ValueError(
                    "a custom cache store requires CacheConfig.target_id when the server is not a URL: in-process "
                    "servers and Transport instances get a random per-client identity, so their entries in a shared "
                    "store could never be served to another client"
                )
        # TLS for https:// servers: trust only the CA bundle `ca_file` (PEM) instead of the
        # platform's store (which honours SSL_CERT_FILE / SSL_CERT_DIR), and present
        # `client_cert`, a (certificate chain, private key) pair of PEM files.
        self.ca_file = os.fspath(ca_file) if ca_file is not None else None
        self.client_cert = (os.fspath(client_cert[0]), os.fspath(client_cert[1])) if client_cert else None
        self.server = server
        self._extensions = declared_extensions(extensions)
        self.read_timeout_seconds = read_timeout_seconds
        self.sampling_callback = sampling_callback
        self.sampling_capabilities = sampling_capabilities
        self.elicitation_callback = elicitation_callback
        self.list_roots_callback = list_roots_callback
        self.logging_callback = logging_callback
        self.message_handler = message_handler
        self.log_level = log_level
        self.client_info = client_info
        self.mode = mode
        self.headers = dict(headers or {})
        self.bearer_token = bearer_token
        # An `OAuthClientProvider` from a 1.x/2.x transport (`auth=`); the official 2.x
        # `Client` takes none of its own.
        self._auth: Any = None
        # 2.x's `http_client=` of the transport: the httpx client that carries the requests.
        self._http_client: Any = None
        self._transport: Any = None
        self._native: NativeClient | None = None
        self._subscriptions: dict[str, Subscription] = {}
        self._details: dict[str, Any] = {}
        self._serving: AbstractAsyncContextManager[Any] | None = None
        # The running loop (asyncio's, or `ferrymcp._trio.TrioLoop` under trio) and the
        # tasks of the async callbacks started on it.
        self._loop: Any = None
        self._tasks: set[Any] = set()
        self._carrier: Carrier | None = None
        # One `async with` per Client, as the official one: entering again (while
        # connected, or after the block ended or failed) is a RuntimeError.
        self._entered = False

    # -- connecting -----------------------------------------------------------------

    async def __aenter__(self) -> Client:
        if self._entered:
            raise RuntimeError("Client is already entered; cannot reenter")
        self._entered = True
        from ferrymcp import _aio

        self._loop = _aio.current_loop()
        target = await self._enter_transport(self.server)
        try:
            await self._connect(target)
        except BaseException as exc:
            await self._exit_transport(type(exc), exc, exc.__traceback__)
            raise
        return self

    async def _connect(self, target: Any) -> None:
        from ferrymcp._native import NativeClient
        from ferrymcp.server.mcpserver import MCPServer

        options, callbacks = self._options(), self._callbacks()
        if isinstance(target, MCPServer):
            self._serving = target._serving()
            native_server = await self._serving.__aenter__()
            try:
                connected = NativeClient.connect_server(native_server, options, callbacks)
                self._native = await connected if inspect.isawaitable(connected) else connected
            except BaseException as exc:
                await self._serving.__aexit__(type(exc), exc, exc.__traceback__)
                raise
        elif isinstance(target, StreamPair):
            from ferrymcp._native import NativePort

            port = NativePort()
            self._carrier = Carrier(port, target.read_stream, target.write_stream)
            self._carrier.start()
            try:
                self._native = await NativeClient.connect_port(port, options, callbacks)
            except BaseException:
                carrier, self._carrier = self._carrier, None
                await carrier.stop()
                raise
        elif isinstance(target, str) and target.startswith(_URL_PREFIXES):
            headers = list(self.headers.items())
            oauth = None
            if self._auth is not None:
                from ferrymcp.client.auth.oauth2 import engine_oauth

                oauth = engine_oauth(self._auth)
            exchange = None
            if self._http_client is not None:
                from ferrymcp.client._exchange import sender

                exchange = sender(self._http_client, oauth is not None)
            self._native = await NativeClient.connect_http(
                target, headers, self.bearer_token, options, callbacks, oauth, self.ca_file, self.client_cert, exchange
            )
        else:
            command, args, env, cwd = _command(target)
            self._native = await NativeClient.spawn(command, args, env, cwd, options, callbacks)
        self._details = self._native.server_details()

    async def _enter_transport(self, target: Any) -> Any:
        """2.x's `Client(streamable_http_client(url, ...))`: the transport's context is
        entered and its pair read for where to connect (URL, headers, read timeout, auth)."""
        from ferrymcp.client._streams import TransportStream

        if not hasattr(target, "__aenter__") or hasattr(target, "_serving"):
            return target
        pair = await target.__aenter__()
        self._transport = target
        read = pair[0] if isinstance(pair, tuple) else None
        if not isinstance(read, TransportStream):
            await self._exit_transport(None, None, None)
            raise TypeError(f"Client cannot connect through {target!r}: it yields no ferrymcp transport pair")
        self.headers = {**(read.headers or {}), **self.headers}
        if self.read_timeout_seconds is None:
            self.read_timeout_seconds = read.read_timeout
        self._auth = read.auth
        self._http_client = read.http_client
        if self.ca_file is None and read.tls.get("ca_file") is not None:
            self.ca_file = os.fspath(read.tls["ca_file"])
        if self.client_cert is None and read.tls.get("client_cert") is not None:
            cert, key = read.tls["client_cert"]
            self.client_cert = (os.fspath(cert), os.fspath(key))
        return read.target

    async def _exit_transport(self, exc_type: Any, exc: Any, tb: Any) -> None:
        transport, self._transport = self._transport, None
        if transport is not None:
            await transport.__aexit__(exc_type, exc, tb)

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        native, self._native = self._native, None
        try:
            if native is not None:
                from ferrymcp import _aio

                # Closed also when the block ends by a cancellation (under trio every
                # await in a cancelled scope is cancelled: the close is shielded there).
                await _aio.uncancelled(native.close())
            if self._carrier is not None:
                carrier, self._carrier = self._carrier, None
                await carrier.stop()
        finally:
            if self._serving is not None:
                serving, self._serving = self._serving, None
                await serving.__aexit__(exc_type, exc, tb)
            await self._exit_transport(exc_type, exc, tb)

    def _options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"era": self.mode}
        if self.prior_discover is not None and self.mode not in ("auto", "legacy"):
            options["era"] = "pinned"
            options["prior_discover"] = _dump(self.prior_discover)
        if self.cache is not None:
            options["cache"] = self.cache._native()
        if self.client_info is not None:
            options["info"] = _dump(self.client_info)
        if self.log_level is not None:
            options["log_level"] = self.log_level
        capabilities: dict[str, Any] = {}
        if self.sampling_callback is not None and self.sampling_capabilities is not None:
            capabilities["sampling"] = _dump(self.sampling_capabilities)
        if self._extensions.extensions:
            capabilities["extensions"] = self._extensions.extensions
        if capabilities:
            options["capabilities"] = capabilities
        if self._extensions.claims:
            options["result_claims"] = self._extensions.native()
        return options

    def _callbacks(self) -> dict[str, Any]:
        callbacks: dict[str, Any] = {"notification": self._on_notification}
        if self.sampling_callback is not None:
            callbacks["sampling"] = self._answer(self.sampling_callback, CreateMessageRequestParams)
        if self.elicitation_callback is not None:
            callbacks["elicitation"] = self._answer(self.elicitation_callback, ElicitRequestParams)
        if self.list_roots_callback is not None:
            callbacks["roots"] = self._answer(self.list_roots_callback, None)
        return callbacks

    def _answer(
        self, callback: Callable[..., Any], params_type: Any
    ) -> Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]:
        """A native callback (params dict in, result dict out) for an official-style
        callback (`context, params` in, a result model or `ErrorData` out)."""

        async def answer(params: dict[str, Any]) -> dict[str, Any]:
            context = ClientRequestContext(session=self, meta=(params or {}).get("_meta"))
            if params_type is None:
                reply = callback(context)
            else:
                reply = callback(context, coerce(params, params_type))
            if inspect.isawaitable(reply):
                reply = await reply
            if type(reply).__name__ == "ErrorData":
                raise McpError(reply.code, reply.message, reply.data)
            result: dict[str, Any] = _dump(reply)
            return result

        return answer

    def _on_notification(self, method: str, params: dict[str, Any] | None) -> None:
        """Called by the engine, on any thread, for each server notification."""
        if self._subscriptions:
            from ferrymcp.client.subscriptions import route

            self._schedule(_notified(method), route, self, method, params)
        if self.logging_callback is not None and method == "notifications/message":
            self._schedule(
                _notified(method), self.logging_callback, LoggingMessageNotificationParams.model_validate(params or {})
            )
        if self.message_handler is not None:
            cls = SERVER_NOTIFICATIONS.get(method)
            typed = cls(params=params) if cls is not None else Notification(method=method, params=params)
            self._schedule(_notified(method), self.message_handler, typed)

    def _schedule(self, failed: tuple[str, str], callback: Callable[..., Any], *args: Any) -> None:
        """Runs `callback` on the client's loop: at once when called there (the engine
        posts the server's messages to the loop in the order they arrived, before the
        answer that follows them), else soon. An async callback becomes a task that the
        requests in flight wait for (`_callbacks_done`). A callback that raises (or whose
        coroutine does) is logged as the official SDK logs it: `failed` is the logger
        name and the message (`_notified(method)`, `_PROGRESSED`)."""
        from ferrymcp import _aio

        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def start() -> None:
            try:
                reply = callback(*args)
            except Exception:
                _log_failure(failed)
                return
            if inspect.isawaitable(reply):
                task = loop.create_task(_contained(reply, failed))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        try:
            here = _aio.current_loop() is loop
        except RuntimeError:
            here = False
        if here:
            start()
        else:
            loop.call_soon_threadsafe(start)

    # -- what the server said about itself ----------------------------------------

    @property
    def _client(self) -> NativeClient:
        if self._native is None:
            raise RuntimeError("Client must be used within an async context manager")
        return self._native

    def _detail(self, key: str) -> Any:
        self._client  # noqa: B018 - raises outside the context manager
        return self._details.get(key)

    @property
    def protocol_version(self) -> str:
        """The protocol revision in use (`2026-07-28` for a modern server)."""
        return str(self._detail("protocol_version"))

    @property
    def server_info(self) -> Implementation | None:
        info = self._detail("info")
        return Implementation.model_validate(info) if info else None

    @property
    def server_capabilities(self) -> ServerCapabilities:
        return ServerCapabilities.model_validate(self._detail("capabilities") or {})

    @property
    def instructions(self) -> str | None:
        instructions: str | None = self._detail("instructions")
        return instructions

    # -- requests -------------------------------------------------------------------

    async def _request(
        self,
        method: str,
        params: dict[str, Any],
        timeout: Any = None,
        progress_callback: ProgressCallback | None = None,
        cache_mode: CacheMode | None = None,
        allow_input_required: bool = False,
        validate_tool: str | None = None,
    ) -> dict[str, Any]:
        progress = None
        if progress_callback is not None:

            def progress(value: float, total: float | None, message: str | None) -> None:
                self._schedule(_PROGRESSED, progress_callback, value, total, message)

        wait: Any = timeout if timeout is not None else self.read_timeout_seconds
        if hasattr(wait, "total_seconds"):  # v1 spelled timeouts as timedelta
            wait = wait.total_seconds()
        try:
            if tracing_active():
                result = await self._traced(
                    method, params, wait, progress, cache_mode, allow_input_required, validate_tool
                )
            else:
                result = await self._client.request(
                    method, params, wait, progress, cache_mode, allow_input_required, validate_tool
                )
        except Exception:
            # An error answer (or a result its outputSchema refuses) also comes after what
            # the server sent before it: those callbacks have run when the caller sees it.
            await self._callbacks_done()
            raise
        await self._callbacks_done()
        return result

    async def _traced(self, method: str, params: dict[str, Any], *rest: Any) -> dict[str, Any]:
        """A request in an OpenTelemetry `CLIENT` span (`MCP send tools/call NAME`, as the
        official client's) whose W3C trace context goes in the request's `_meta`, so the
        server's span joins the trace (SEP-414)."""
        from opentelemetry.trace import SpanKind

        from ferrymcp.shared._otel import inject_trace_context, otel_span

        target = params.get("name")
        name = f"MCP send {method} {target}" if isinstance(target, str) else f"MCP send {method}"
        with otel_span(name, kind=SpanKind.CLIENT, attributes={"mcp.method.name": method}):
            meta = dict(params.get("_meta") or {})
            inject_trace_context(meta)
            result: dict[str, Any] = await self._client.request(
                method, {**params, "_meta": meta} if meta else params, *rest
            )
        return result

    async def _callbacks_done(self) -> None:
        """Waits for the callbacks (progress, logging, message handler) that the server's
        messages started before this point: a call returns only once everything the server
        sent before its answer has been handled, as with the official session."""
        started = [task for task in self._tasks if not task.done()]
        if started:
            from ferrymcp import _aio

            await _aio.wait_all(started)

    async def _typed(self, result_type: type[_T], method: str, params: dict[str, Any], **options: Any) -> _T:
        return result_type.model_validate(await self._request(method, params, **options))

    async def list_tools(
        self, *, cursor: str | None = None, meta: dict[str, Any] | None = None, cache_mode: CacheMode = "use"
    ) -> ListToolsResult:
        params = _params(cursor=cursor, _meta=meta)
        return await self._typed(ListToolsResult, "tools/list", params, cache_mode=cache_mode)

    @property
    def session(self) -> ClientSession:
        """The session under this client (the official `Client.session`): the same
        connection seen through `ClientSession`'s methods (`list_tools(cursor)`,
        `initialize()`, `send_request(...)`), sharing this client's state."""
        self._client  # noqa: B018 - raises outside the context manager
        from ferrymcp.client.session import ClientSession

        if isinstance(self, ClientSession):
            return self
        view = object.__new__(ClientSession)
        view.__dict__ = self.__dict__
        return view

    async def send_request(
        self, request: Any, result_type: type[_T], read_timeout_seconds: float | timedelta | None = None
    ) -> _T:
        """Sends any request (a request model with `method` and `params`, e.g. an
        extension's own) and validates the result as `result_type`."""
        wire = _dump(request)
        if not isinstance(wire, dict) or not isinstance(wire.get("method"), str):
            raise TypeError(f"send_request needs a request with a method, not {type(request).__name__}")
        params = wire.get("params") or {}
        return await self._typed(result_type, wire["method"], params, timeout=read_timeout_seconds)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: float | timedelta | None = None,
        progress_callback: ProgressCallback | None = None,
        *,
        input_responses: InputResponses | None = None,
        request_state: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> CallToolResult:
        """Calls a tool. A tool that fails gives a result with `is_error` set; a
        protocol error (unknown tool, bad arguments) raises `McpError`. The engine answers a
        2026-07-28 server's input requests through the callbacks; `input_responses` and
        `request_state` retry a round the caller answered itself. A result shape one of
        the client's `extensions` claims is finished by that claim's `resolve`, whose
        `CallToolResult` is returned (checked against the tool's `outputSchema` unless it
        is an error)."""
        result = await self._call_tool(
            name, arguments, read_timeout_seconds, progress_callback, input_responses, request_state, meta, False
        )
        claim = self._claim_of(result)
        if claim is None:
            return CallToolResult.model_validate(result)
        wait: Any = read_timeout_seconds if read_timeout_seconds is not None else self.read_timeout_seconds
        if hasattr(wait, "total_seconds"):
            wait = wait.total_seconds()
        context = ClaimContext(session=self.session, tool_name=name, read_timeout_seconds=wait)
        final = await claim.resolve(claim.model.model_validate(result), context)
        if not final.is_error:
            await self._client.validate_tool_result(name, _dump(final))
        return final

    def _claim_of(self, result: dict[str, Any]) -> ResultClaim[Any] | None:
        """The client's claim whose shape `result` (a `tools/call` result) is: its tag is
        one of this client's claims and the engine says the claim is active here."""
        tag = result.get("resultType")
        if not isinstance(tag, str) or tag not in self._extensions.claims:
            return None
        if not self._client.claims("tools/call", tag):
            return None
        return self._extensions.claims[tag][1]

    async def _call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        read_timeout_seconds: float | timedelta | None,
        progress_callback: ProgressCallback | None,
        input_responses: InputResponses | None,
        request_state: str | None,
        meta: dict[str, Any] | None,
        allow_input_required: bool,
    ) -> dict[str, Any]:
        params = _params(name=name, arguments=arguments or {}, _meta=meta, **_inputs(input_responses, request_state))
        # The engine checks structuredContent against the tool's outputSchema (RuntimeError)
        # before answering (not a result asking for input).
        return await self._request(
            "tools/call",
            params,
            read_timeout_seconds,
            progress_callback,
            allow_input_required=allow_input_required,
            validate_tool=name,
        )

    async def list_resources(
        self, *, cursor: str | None = None, meta: dict[str, Any] | None = None, cache_mode: CacheMode = "use"
    ) -> ListResourcesResult:
        params = _params(cursor=cursor, _meta=meta)
        return await self._typed(ListResourcesResult, "resources/list", params, cache_mode=cache_mode)

    async def list_resource_templates(
        self, *, cursor: str | None = None, meta: dict[str, Any] | None = None, cache_mode: CacheMode = "use"
    ) -> ListResourceTemplatesResult:
        params = _params(cursor=cursor, _meta=meta)
        return await self._typed(ListResourceTemplatesResult, "resources/templates/list", params, cache_mode=cache_mode)

    async def read_resource(
        self,
        uri: Any,
        *,
        input_responses: InputResponses | None = None,
        request_state: str | None = None,
        meta: dict[str, Any] | None = None,
        cache_mode: CacheMode = "use",
    ) -> ReadResourceResult:
        params = _params(uri=str(uri), _meta=meta, **_inputs(input_responses, request_state))
        return await self._typed(ReadResourceResult, "resources/read", params, cache_mode=cache_mode)

    async def subscribe_resource(self, uri: Any, *, meta: dict[str, Any] | None = None) -> EmptyResult:
        """Asks a legacy server for `notifications/resources/updated` about `uri`
        (2026-07-28 removed the method; the official method warns the same way)."""
        warnings.warn(
            "resources/subscribe is removed as of 2026-07-28; use Client.listen() instead.",
            MCPDeprecationWarning,
            stacklevel=2,
        )
        return await self._typed(EmptyResult, "resources/subscribe", _params(uri=str(uri), _meta=meta))

    async def unsubscribe_resource(self, uri: Any, *, meta: dict[str, Any] | None = None) -> EmptyResult:
        warnings.warn(
            "resources/unsubscribe is removed as of 2026-07-28; use Client.listen() instead.",
            MCPDeprecationWarning,
            stacklevel=2,
        )
        return await self._typed(EmptyResult, "resources/unsubscribe", _params(uri=str(uri), _meta=meta))

    async def list_prompts(
        self, *, cursor: str | None = None, meta: dict[str, Any] | None = None, cache_mode: CacheMode = "use"
    ) -> ListPromptsResult:
        params = _params(cursor=cursor, _meta=meta)
        return await self._typed(ListPromptsResult, "prompts/list", params, cache_mode=cache_mode)

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, str] | None = None,
        *,
        input_responses: InputResponses | None = None,
        request_state: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> GetPromptResult:
        params = _params(name=name, arguments=arguments, _meta=meta, **_inputs(input_responses, request_state))
        return await self._typed(GetPromptResult, "prompts/get", params)

    async def complete(
        self,
        ref: ResourceTemplateReference | PromptReference | dict[str, Any],
        argument: dict[str, str],
        context_arguments: dict[str, str] | None = None,
    ) -> CompleteResult:
        """Suggestions for a prompt argument or a template variable."""
        context = {"arguments": context_arguments} if context_arguments is not None else None
        params = _params(ref=_dump(ref), argument=argument, context=context)
        return await self._typed(CompleteResult, "completion/complete", params)

    async def set_logging_level(self, level: str, *, meta: dict[str, Any] | None = None) -> EmptyResult:
        """Sets the level of the log messages a legacy server sends."""
        return await self._typed(EmptyResult, "logging/setLevel", _params(level=level, _meta=meta))

    @property
    def experimental(self) -> ExperimentalClientFeatures:
        """Tasks (the official `session.experimental`): see `ferrymcp.client.experimental.tasks`."""
        from ferrymcp.client.experimental.tasks import ExperimentalClientFeatures

        return ExperimentalClientFeatures(self)

    async def send_roots_list_changed(self) -> None:
        """Tells the server the roots changed (`notifications/roots/list_changed`)."""
        await self._client.send_roots_list_changed()

    def listen(
        self,
        *,
        tools_list_changed: bool = False,
        prompts_list_changed: bool = False,
        resources_list_changed: bool = False,
        resource_subscriptions: Sequence[str] = (),
    ) -> AbstractAsyncContextManager[Subscription]:
        """Opens a `subscriptions/listen` stream of typed change events (2026-07-28 only):
        see `ferrymcp.client.subscriptions`. `ListenNotSupportedError` on an older revision."""
        from ferrymcp.client.subscriptions import listen

        return listen(
            self,
            tools_list_changed=tools_list_changed,
            prompts_list_changed=prompts_list_changed,
            resources_list_changed=resources_list_changed,
            resource_subscriptions=resource_subscriptions,
        )

    async def send_ping(self, *, meta: dict[str, Any] | None = None) -> EmptyResult:
        """`ping`, which 2026-07-28 removed (the official method warns the same way)."""
        warnings.warn(
            "ping is removed as of 2026-07-28; the method only works under mode='legacy'.",
            MCPDeprecationWarning,
            stacklevel=2,
        )
        return await self._typed(EmptyResult, "ping", _params(_meta=meta))


def _params(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else value


def _check_encoding(params: Any) -> None:
    encoding = str(getattr(params, "encoding", "utf-8"))
    if encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ValueError(f"StdioServerParameters(encoding={encoding!r}): MCP's stdio transport is UTF-8")
    handler = getattr(params, "encoding_error_handler", "strict")
    if handler != "strict":
        raise ValueError(
            f"StdioServerParameters(encoding_error_handler={handler!r}): ferrymcp answers invalid UTF-8 with a "
            "parse error (the 'strict' behaviour)"
        )


def _command(target: Any) -> tuple[str, list[str], dict[str, str] | None, str | None]:
    """The command, arguments, environment and directory of a stdio target."""
    if isinstance(target, str):
        parts = shlex.split(target)
    elif isinstance(target, (list, tuple)):
        parts = [str(part) for part in target]
    elif hasattr(target, "command"):
        _check_encoding(target)
        env = getattr(target, "env", None)
        cwd = getattr(target, "cwd", None)
        return str(target.command), [str(a) for a in getattr(target, "args", []) or []], env, str(cwd) if cwd else None
    else:
        raise TypeError(
            f"Client cannot connect to {target!r}: pass an MCPServer, a URL, a command, or StdioServerParameters"
        )
    if not parts:
        raise ValueError("Client needs a command to run")
    return parts[0], parts[1:], None, None


def _inputs(input_responses: InputResponses | None, request_state: str | None) -> dict[str, Any]:
    """The retry keys of a round the caller answered itself (`inputResponses` keyed as the
    server's `inputRequests`, and the `requestState` it gave back)."""
    inputs: dict[str, Any] = {}
    if input_responses is not None:
        inputs["inputResponses"] = {key: _dump(value) for key, value in input_responses.items()}
    if request_state is not None:
        inputs["requestState"] = request_state
    return inputs


def _check_mode(mode: str) -> None:
    """`mode` as the official `Client` takes it: "legacy", "auto" or a 2026-era revision to
    pin ("modern" too, ferrymcp's name for the newest); a handshake-era revision is refused
    with the official message, which points at mode="legacy". The revisions are core's."""
    from ferrymcp._native import MODERN_PROTOCOL_VERSION, PROTOCOL_VERSIONS

    modern = [v for v in PROTOCOL_VERSIONS if v >= MODERN_PROTOCOL_VERSION]
    if mode in ("legacy", "auto", "modern") or mode in modern:
        return
    hint = f" ({mode!r} is a handshake-era version; use mode='legacy')" if mode in PROTOCOL_VERSIONS else ""
    raise ValueError(f"mode must be 'legacy', 'auto', or one of {modern}; got {mode!r}{hint}")


def __getattr__(name: str) -> Any:
    # `ClientSession` subclasses `Client`, so its module imports this one: the official
    # `from mcp.client import ClientSession, IncomingMessage` is served on first use.
    if name in ("ClientSession", "IncomingMessage"):
        from ferrymcp.client import session

        return getattr(session, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# How the official SDK logs a client callback that raises: a notification's callback
# (`logging_callback`, `message_handler`) on logger "client" (its `mcp.client.session`
# logger's name), a progress callback on its dispatcher's logger (in ferrymcp's namespace).
def _notified(method: str) -> tuple[str, str]:
    return ("client", f"notification callback for {method!r} raised")


_PROGRESSED = ("ferrymcp.shared.jsonrpc_dispatcher", "progress callback raised")


def _log_failure(failed: tuple[str, str]) -> None:
    import logging

    name, message = failed
    logging.getLogger(name).exception("%s", message)


async def _contained(reply: Awaitable[Any], failed: tuple[str, str]) -> None:
    try:
        await reply
    except Exception:
        _log_failure(failed)
