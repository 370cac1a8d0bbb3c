"""`ctx.session`: the official SDK's `ServerSession` methods, over the native context.

Tools written for the official SDK sample through `ctx.session.create_message(...)`, ask
for roots with `ctx.session.list_roots()`, read `ctx.session.client_params` and send
notifications through the session. Each call here is one call into the engine, which
knows the era of the request: a legacy session gets a real server-to-client request, a
2026-07-28 request an `input_required` round, invisibly to the tool.
"""

from __future__ import annotations

import warnings
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ferrymcp.exceptions import MCPDeprecationWarning
from ferrymcp.types import (
    ClientCapabilities,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitCompleteNotification,
    ElicitCompleteNotificationParams,
    ElicitResult,
    EmptyResult,
    Implementation,
    InitializeRequestParams,
    ListRootsResult,
    ModelPreferences,
    PingRequest,
    PromptListChangedNotification,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ResourceUpdatedNotificationParams,
    SamplingMessage,
    Tool,
    ToolChoice,
    ToolListChangedNotification,
)

if TYPE_CHECKING:
    from ferrymcp._native import NativeContext
    from ferrymcp._wire import WireModel
    from ferrymcp.server.mcpserver import MCPServer

ResultT = TypeVar("ResultT", bound="WireModel")


def _wire(value: Any) -> Any:
    if isinstance(value, list):
        return [_wire(item) for item in value]
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else value


class ServerSession:
    """The session of the request a handler serves (the official `ServerSession` API)."""

    def __init__(self, native: NativeContext, server: MCPServer[Any] | None) -> None:
        self._native = native
        self._server = server

    @property
    def protocol_version(self) -> str:
        return self._native.protocol_version

    @property
    def client_capabilities(self) -> ClientCapabilities | None:
        capabilities = self._native.client_capabilities
        return ClientCapabilities.model_validate(capabilities) if capabilities is not None else None

    @property
    def client_params(self) -> InitializeRequestParams | None:
        """What the client said about itself (`None` when it gave no client info)."""
        info = self._native.client_info
        if info is None:
            return None
        return InitializeRequestParams(
            protocol_version=self._native.protocol_version,
            capabilities=self.client_capabilities or ClientCapabilities(),
            client_info=Implementation.model_validate(info),
        )

    @property
    def can_send_request(self) -> bool:
        """Whether a server-to-client request can reach the client (core's rule): a legacy
        session with a way back; not at 2026-07-28 (a request asks with `input_required`
        there), nor a stateless or JSON-response HTTP request."""
        return bool(self._native.can_send_request)

    async def send_request(
        self,
        request: Any,
        result_type: type[ResultT],
        request_read_timeout_seconds: float | timedelta | None = None,
        metadata: Any = None,
        progress_callback: Any = None,
    ) -> ResultT:
        """Sends a request to the client and validates its result as `result_type`.

        Core decides, as for `elicit` (its `Context::ask` in the official dialect): on a
        legacy session the request is sent whatever the client declared (the client
        answers what it cannot do; its JSON-RPC error is raised as `McpError`); a
        2026-07-28 request has no back-channel and raises `NoBackChannelError`.
        `request_read_timeout_seconds` (seconds, or a `timedelta` as in the 1.x API)
        bounds the wait for the answer in the engine's request options; on expiry the
        client is sent `notifications/cancelled` and `McpError` with code -32001
        (`REQUEST_TIMEOUT`) is raised, as the official SDK does. `None`: the engine's
        default wait."""
        if progress_callback is not None:
            raise NotImplementedError(
                "send_request(progress_callback=...) is not supported: ferrymcp does not route the "
                "client's progress notifications for a server-to-client request to a callback"
            )
        data = _wire(request)
        method = data["method"]
        timeout = request_read_timeout_seconds
        if isinstance(timeout, timedelta):
            timeout = timeout.total_seconds()
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))):
            raise TypeError(
                "send_request(request_read_timeout_seconds=...) takes seconds (a number) or a timedelta,"
                f" not {type(timeout).__name__}"
            )
        if timeout is not None and not 0 <= timeout < float("inf"):
            raise ValueError(f"send_request(request_read_timeout_seconds=...) must be >= 0 and finite, got {timeout}")
        # Core decides (its `Context::ask` in the official dialect): sent on a legacy
        # session as it is, refused at 2026-07-28 (`NoBackChannelError`).
        answer = self._native.session_request(method, data.get("params") or {}, timeout)
        return result_type.model_validate(await answer)

    async def send_notification(self, notification: Any, related_request_id: Any = None) -> None:
        """Sends a notification as it is: on this request's way back when
        `related_request_id` is given (or the request has no session, 2026-07-28), else on
        the session's (the stdio pipe, a legacy HTTP session's standalone stream)."""
        data = _wire(notification)
        await self._native.notify(data["method"], data.get("params"), related_request_id is not None)

    async def send_ping(self) -> EmptyResult:
        """Pings the client (a legacy session only; see `send_request`)."""
        return await self.send_request(PingRequest(), EmptyResult)

    async def send_elicit_complete(self, elicitation_id: str, related_request_id: Any = None) -> None:
        """Tells the client that a URL-mode elicitation completed out of band."""
        await self.send_notification(
            ElicitCompleteNotification(params=ElicitCompleteNotificationParams(elicitation_id=elicitation_id)),
            related_request_id,
        )

    def check_client_capability(self, capability: ClientCapabilities) -> bool:
        """Whether the client declared every capability set in `capability`."""
        declared = self._native.client_capabilities or {}
        wanted = capability.model_dump(by_alias=True, exclude_none=True)
        return all(key in declared for key in wanted)

    async def create_message(
        self, messages: list[SamplingMessage] | list[dict[str, Any]], *, max_tokens: int, **options: Any
    ) -> CreateMessageResult | CreateMessageResultWithTools:
        """Asks the client's model for a completion (`sampling/createMessage`; the keywords
        of `_create_message`). Warns as the official method does: sampling is deprecated
        from 2026-07-28 (the `Sample` dependency does not warn, as there)."""
        warnings.warn(
            "The sampling capability is deprecated as of 2026-07-28 (SEP-2577).", MCPDeprecationWarning, stacklevel=2
        )
        return await self._create_message(messages, max_tokens=max_tokens, **options)

    async def _create_message(
        self,
        messages: list[SamplingMessage] | list[dict[str, Any]],
        *,
        max_tokens: int,
        system_prompt: str | None = None,
        include_context: str | None = None,
        temperature: float | None = None,
        stop_sequences: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        model_preferences: ModelPreferences | None = None,
        tools: list[Tool] | None = None,
        tool_choice: ToolChoice | None = None,
        related_request_id: Any = None,
        resolver: str | None = None,
    ) -> CreateMessageResult | CreateMessageResultWithTools:
        params: dict[str, Any] = {"messages": _wire(messages), "maxTokens": max_tokens}
        optional = {
            "systemPrompt": system_prompt,
            "includeContext": include_context,
            "temperature": temperature,
            "stopSequences": stop_sequences,
            "metadata": metadata,
            "modelPreferences": _wire(model_preferences),
            "tools": _wire(tools) if tools is not None else None,
            "toolChoice": _wire(tool_choice),
        }
        params.update({key: value for key, value in optional.items() if value is not None})
        # `resolver`: the input of the resolver of that name (in `input_required` rounds at
        # 2026-07-28, refused by the engine when the client cannot answer it).
        if resolver is not None:
            result = await self._native.resolver_input(resolver, "sampling/createMessage", params)
        else:
            result = await self._native.sample(params)
        if tools is not None or tool_choice is not None:
            return CreateMessageResultWithTools.model_validate(result)
        return CreateMessageResult.model_validate(result)

    async def list_roots(self) -> ListRootsResult:
        """Asks the client for its roots (`roots/list`)."""
        return ListRootsResult.model_validate(await self._native.list_roots())

    async def elicit_form(
        self, message: str, requested_schema: dict[str, Any], related_request_id: Any = None
    ) -> ElicitResult:
        """Asks the user to fill a form (`elicitation/create`, form mode)."""
        params = {"mode": "form", "message": message, "requestedSchema": requested_schema}
        return ElicitResult.model_validate(await self._native.elicit(params))

    elicit = elicit_form

    async def elicit_url(
        self, message: str, url: str, elicitation_id: str, related_request_id: Any = None
    ) -> ElicitResult:
        """Asks the user to open a URL (`elicitation/create`, URL mode)."""
        params = {"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id}
        return ElicitResult.model_validate(await self._native.elicit(params))

    async def send_log_message(
        self, level: str, data: Any, logger: str | None = None, related_request_id: Any = None
    ) -> None:
        """Sends `notifications/message` if the client's log level lets it through."""
        await self._native.log(level, data, logger)

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Reports progress on this request (nothing is sent without a progress token)."""
        await self._native.report_progress(progress, total, message)

    async def send_progress_notification(
        self,
        progress_token: str | int,
        progress: float,
        total: float | None = None,
        message: str | None = None,
        related_request_id: Any = None,
    ) -> None:
        """Reports progress on this request; the engine uses the request's own token."""
        await self._native.report_progress(progress, total, message)

    # The session's notification verbs send on this session, as the official ones do
    # (`MCPServer.notify_*` is the server-wide way: every subscribed session, and the
    # 2026-07-28 listen streams).

    async def send_resource_updated(self, uri: str) -> None:
        params = ResourceUpdatedNotificationParams(uri=str(uri))
        await self.send_notification(ResourceUpdatedNotification(params=params))

    async def send_resource_list_changed(self) -> None:
        await self.send_notification(ResourceListChangedNotification())

    async def send_tool_list_changed(self) -> None:
        await self.send_notification(ToolListChangedNotification())

    async def send_prompt_list_changed(self) -> None:
        await self.send_notification(PromptListChangedNotification())
