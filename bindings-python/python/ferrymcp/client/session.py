"""`ClientSession` at the official path (`mcp.client.session`): the 1.x client idiom that
langchain-mcp-adapters, openai-agents and pydantic-ai are built on.

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, sampling_callback=...) as session:
            await session.initialize()
            tools = await session.list_tools()

The pair comes from ferrymcp's `stdio_client`, `streamablehttp_client` /
`streamable_http_client` or `sse_client`; entering the session connects through the engine
(the initialize handshake included: `ClientSession` speaks the legacy era, as the 1.x
session does), and `initialize()` returns the server's `InitializeResult`. Every other
method is `ferrymcp.Client`'s, with the official session's signatures (`cursor`
positional, `params=` objects). Streams a program made itself (anyio memory streams of
`SessionMessage`, fed by a transport of its own) work too: their messages are carried to
and from the engine (`ferrymcp._carried`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal, TypeAlias, TypeVar, overload

from ferrymcp._carried import StreamPair, is_stream_pair
from ferrymcp.client import Client, ProgressCallback, _inputs
from ferrymcp.client._streams import TransportStream
from ferrymcp.client.extension import UnexpectedClaimedResult
from ferrymcp.types import (
    CallToolResult,
    ClientCapabilities,
    DiscoverResult,
    GetPromptResult,
    Implementation,
    InitializeResult,
    InputRequiredResult,
    InputResponses,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    ReadResourceResult,
    Result,
    ServerCapabilities,
    ServerNotification,
)

_USER_STREAMS = (
    "ClientSession needs the (read, write) pair of a ferrymcp transport (ferrymcp.client.stdio.stdio_client, "
    "ferrymcp.client.streamable_http.streamablehttp_client, ferrymcp.client.sse.sse_client), or two streams "
    "of SessionMessage (read_stream.receive(), write_stream.send())"
)


_R = TypeVar("_R", CallToolResult, GetPromptResult, ReadResourceResult)


def _input_or(result_type: type[_R], result: dict[str, Any]) -> _R | InputRequiredResult:
    """The result as `result_type`, or the server's request for input."""
    if result.get("resultType") == "input_required":
        return InputRequiredResult.model_validate(result)
    return result_type.model_validate(result)


def _cursor(cursor: str | None, params: Any) -> str | None:
    if params is not None:
        if cursor is not None:
            raise TypeError("pass either cursor or params, not both")
        return getattr(params, "cursor", None) if not isinstance(params, dict) else params.get("cursor")
    return cursor


IncomingMessage: TypeAlias = "ServerNotification | Exception"
"""What a `message_handler` receives: a server notification, or an exception the
transport raised (the official `mcp.client.session.IncomingMessage`)."""


class ClientSession(Client):
    """A session with one server over a ferrymcp transport pair (see the module doc)."""

    def __init__(
        self,
        read_stream: Any = None,
        write_stream: Any = None,
        read_timeout_seconds: float | timedelta | None = None,
        sampling_callback: Any = None,
        elicitation_callback: Any = None,
        list_roots_callback: Any = None,
        logging_callback: Any = None,
        message_handler: Any = None,
        client_info: Implementation | None = None,
        *,
        log_level: str | None = None,
        sampling_capabilities: Any = None,
        **unsupported: Any,
    ) -> None:
        if unsupported:
            raise TypeError(f"ClientSession() does not support {sorted(unsupported)} in ferrymcp")
        target: Any
        tls: dict[str, Any] = {}
        if isinstance(read_stream, TransportStream) and write_stream is read_stream:
            target, headers, auth = read_stream.target, read_stream.headers, read_stream.auth
            tls = read_stream.tls
            timeout = read_timeout_seconds if read_timeout_seconds is not None else read_stream.read_timeout
        elif is_stream_pair(read_stream, write_stream):
            target, headers, timeout = StreamPair(read_stream, write_stream), None, read_timeout_seconds
            auth = None
        else:
            raise TypeError(_USER_STREAMS)
        super().__init__(
            target,
            read_timeout_seconds=timeout,
            sampling_callback=sampling_callback,
            sampling_capabilities=sampling_capabilities,
            elicitation_callback=elicitation_callback,
            list_roots_callback=list_roots_callback,
            logging_callback=logging_callback,
            message_handler=message_handler,
            log_level=log_level,
            client_info=client_info,
            mode="legacy",
            headers=headers,
            cache=None,
            **tls,
        )
        self._auth = auth
        if isinstance(read_stream, TransportStream):
            self._http_client = read_stream.http_client

    async def __aenter__(self) -> ClientSession:
        await super().__aenter__()
        return self

    async def initialize(self) -> InitializeResult:
        """The server's answer to the handshake (made when the session was entered)."""
        return self._initialize_result()

    @property
    def discover_result(self) -> DiscoverResult | None:
        """The server's `server/discover` answer on a 2026-07-28 connection (`None` after an
        `initialize` handshake); give it back as `Client(prior_discover=...)` to skip asking."""
        discover = self._detail("discover")
        return DiscoverResult.model_validate(discover) if discover is not None else None

    @property
    def initialize_result(self) -> InitializeResult | None:
        """The server's `initialize` answer; `None` on a 2026-07-28 connection (no handshake)."""
        return None if self._detail("modern") else self._initialize_result()

    def _initialize_result(self) -> InitializeResult:
        return InitializeResult.model_validate(
            {
                "protocolVersion": self.protocol_version,
                "capabilities": self._detail("capabilities") or {},
                "serverInfo": self._detail("info") or {"name": "", "version": ""},
                **({"instructions": self.instructions} if self.instructions is not None else {}),
            }
        )

    def get_server_capabilities(self) -> ServerCapabilities | None:
        """The capabilities the server declared."""
        return self.server_capabilities

    def check_client_capability(self, capability: ClientCapabilities) -> bool:
        raise NotImplementedError("ClientSession.check_client_capability is a server-side check")

    async def list_tools(  # type: ignore[override]
        self, cursor: str | None = None, *, params: Any = None, meta: dict[str, Any] | None = None
    ) -> ListToolsResult:
        return await super().list_tools(cursor=_cursor(cursor, params), meta=meta, cache_mode="bypass")

    async def list_resources(  # type: ignore[override]
        self, cursor: str | None = None, *, params: Any = None, meta: dict[str, Any] | None = None
    ) -> ListResourcesResult:
        return await super().list_resources(cursor=_cursor(cursor, params), meta=meta, cache_mode="bypass")

    async def list_resource_templates(  # type: ignore[override]
        self, cursor: str | None = None, *, params: Any = None, meta: dict[str, Any] | None = None
    ) -> ListResourceTemplatesResult:
        return await super().list_resource_templates(cursor=_cursor(cursor, params), meta=meta, cache_mode="bypass")

    async def list_prompts(  # type: ignore[override]
        self, cursor: str | None = None, *, params: Any = None, meta: dict[str, Any] | None = None
    ) -> ListPromptsResult:
        return await super().list_prompts(cursor=_cursor(cursor, params), meta=meta, cache_mode="bypass")

    async def read_resource(  # type: ignore[override]
        self,
        uri: Any,
        *,
        input_responses: InputResponses | None = None,
        request_state: str | None = None,
        meta: dict[str, Any] | None = None,
        allow_input_required: bool = False,
    ) -> ReadResourceResult | InputRequiredResult:
        """Session-tier calls always reach the server (the response cache is the `Client`'s).
        `allow_input_required=True` returns a 2026-07-28 server's `InputRequiredResult` to
        the caller instead of answering it through the callbacks."""
        if not allow_input_required:
            return await super().read_resource(
                uri, input_responses=input_responses, request_state=request_state, meta=meta, cache_mode="bypass"
            )
        params = {"uri": str(uri), **_inputs(input_responses, request_state), **({"_meta": meta} if meta else {})}
        return _input_or(ReadResourceResult, await self._request("resources/read", params, allow_input_required=True))

    @overload
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
        allow_input_required: Literal[False] = False,
        allow_claimed: Literal[False] = False,
    ) -> CallToolResult: ...

    @overload
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
        allow_input_required: bool,
        allow_claimed: Literal[False] = False,
    ) -> CallToolResult | InputRequiredResult: ...

    @overload
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
        allow_input_required: bool = False,
        allow_claimed: bool,
    ) -> CallToolResult | InputRequiredResult | Result: ...

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
        allow_input_required: bool = False,
        allow_claimed: bool = False,
    ) -> CallToolResult | InputRequiredResult | Result:
        """`Client.call_tool`; `allow_input_required=True` returns a 2026-07-28 server's
        `InputRequiredResult` to the caller, who answers it and calls again with
        `input_responses` and `request_state`. A result shape one of the client's
        `extensions` claims is returned parsed by the claim's model with
        `allow_claimed=True`, and raises `UnexpectedClaimedResult` (carrying it) otherwise."""
        result = await self._call_tool(
            name,
            arguments,
            read_timeout_seconds,
            progress_callback,
            input_responses,
            request_state,
            meta,
            allow_input_required,
        )
        claim = self._claim_of(result)
        if claim is None:
            return _input_or(CallToolResult, result)
        claimed: Result = claim.model.model_validate(result)
        if not allow_claimed:
            raise UnexpectedClaimedResult(claimed)
        return claimed

    async def get_prompt(  # type: ignore[override]
        self,
        name: str,
        arguments: dict[str, str] | None = None,
        *,
        input_responses: InputResponses | None = None,
        request_state: str | None = None,
        meta: dict[str, Any] | None = None,
        allow_input_required: bool = False,
    ) -> GetPromptResult | InputRequiredResult:
        """`Client.get_prompt`; `allow_input_required` as for `call_tool`."""
        params: dict[str, Any] = {"name": name, **_inputs(input_responses, request_state)}
        if arguments is not None:
            params["arguments"] = arguments
        if meta is not None:
            params["_meta"] = meta
        result = await self._request("prompts/get", params, allow_input_required=allow_input_required)
        return _input_or(GetPromptResult, result)

    async def send_progress_notification(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("ferrymcp's client cannot send progress notifications yet")


__all__ = ["ClientSession"]
