"""`Connection` (`mcp.server.connection`): one client connection's state and its
standalone outbound channel, as the official kernel object.

A `Connection` holds what the peer declared (`client_params`, `client_capabilities`), the
`protocol_version` it speaks, per-connection scratch `state`, an `exit_stack` for teardown,
an `initialized` event, and an `outbound` channel: any object with `async
send_raw_request(method, params, opts=None) -> dict` and `async notify(method, params,
opts=None)` (the official `Outbound`). Build one with `Connection.from_envelope` (the
2026-07-28 single exchange: born ready, no back-channel, whose requests raise
`NoBackChannelError` and whose notifications are dropped) or `Connection.for_loop` (the
handshake path). Notifications are best effort: `notify` never raises for a closed stream.

ferrymcp's engine keeps its own connections (a server's handlers reach theirs through
`ctx.session`); this class is for code that drives an outbound channel of its own. The
kernel drivers the official SDK pairs it with (`mcp.server.runner.serve_one`,
`serve_connection`) are not part of ferrymcp. What the protocol decides here comes from the
engine: the revisions of the 2026-07-28 era, the log levels and their order, the reserved
`_meta` keys.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Mapping
from contextlib import AsyncExitStack
from typing import Any, Protocol, TypeVar

from ferrymcp.exceptions import NoBackChannelError

__all__ = ["Connection"]

logger = logging.getLogger(__name__)
_logger = logger

ResultT = TypeVar("ResultT")


class Outbound(Protocol):
    """A channel for server-initiated messages (the official `mcp.shared.dispatcher.Outbound`)."""

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: Any = None
    ) -> dict[str, Any]: ...

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None: ...


def _log_levels() -> list[str]:
    from ferrymcp import _native

    return list(_native.LOG_LEVELS)


def allowed_log_levels(protocol_version: str, meta: Mapping[str, Any] | None) -> frozenset[str]:
    """The `notifications/message` levels one inbound request may receive: every level
    before the 2026-07-28 era (`logging/setLevel` filters there); from it, the level the
    request's `_meta` asks for (`io.modelcontextprotocol/logLevel`) and the more severe
    ones, none when it asks for none (a connection-scoped emitter passes `meta=None`)."""
    from ferrymcp import _version
    from ferrymcp.types import LOG_LEVEL_META_KEY

    levels = _log_levels()
    if protocol_version not in _version.MODERN_PROTOCOL_VERSIONS:
        return frozenset(levels)
    requested = (meta or {}).get(LOG_LEVEL_META_KEY)
    if requested not in levels:
        return frozenset()
    return frozenset(levels[levels.index(requested) :])


def _typed(model: Any, raw: Any) -> Any:
    """`raw` as `model`, or `None` when it does not validate (a mis-shaped envelope value
    reads as not supplied, as does `None` or any value that is not a mapping)."""
    if not isinstance(raw, Mapping):
        return None
    try:
        return model.model_validate(dict(raw))
    except (TypeError, ValueError):
        return None


def _with_meta(params: dict[str, Any] | None, meta: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not meta:
        return params
    return {**(params or {}), "_meta": dict(meta)}


class _NoChannelOutbound:
    """The outbound of a connection with no back-channel: requests raise
    `NoBackChannelError`, notifications are dropped (debug-logged)."""

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        logger.debug("dropped %s: no standalone channel", method)


_NO_CHANNEL = _NoChannelOutbound()
_CLOSED_STREAM = ("BrokenResourceError", "ClosedResourceError")


class Connection:
    """Per-client connection state and its standalone outbound channel (see the module doc)."""

    def __init__(
        self,
        outbound: Outbound,
        *,
        protocol_version: str,
        session_id: str | None = None,
        client_params: Any = None,
    ) -> None:
        self.outbound = outbound
        self.protocol_version = protocol_version
        self.session_id = session_id
        self.client_capabilities: Any = None
        self.client_params = client_params
        self.initialized = asyncio.Event()
        """Set when the client's `notifications/initialized` arrives (pre-set by `from_envelope`)."""
        self.state: dict[str, Any] = {}
        self.exit_stack = AsyncExitStack()

    @property
    def client_params(self) -> Any:
        """The client's `InitializeRequestParams` (or the equivalent built from a 2026-07-28
        envelope); `None` when it did not identify itself."""
        return self._client_params

    @client_params.setter
    def client_params(self, value: Any) -> None:
        # Recording the params records their capabilities too (clearing keeps them).
        self._client_params = value
        if value is not None:
            self.client_capabilities = value.capabilities

    @classmethod
    def from_envelope(
        cls,
        protocol_version: str,
        client_info: Any,
        client_capabilities: Any,
        *,
        outbound: Outbound = _NO_CHANNEL,
    ) -> Connection:
        """A born-ready connection from a 2026-07-28 request's `_meta` envelope: the raw
        client info and capabilities (a mis-shaped one reads as not supplied)."""
        from ferrymcp.types import ClientCapabilities, Implementation, InitializeRequestParams

        info = _typed(Implementation, client_info)
        capabilities = _typed(ClientCapabilities, client_capabilities)
        params = None
        if info is not None and capabilities is not None:
            params = InitializeRequestParams(
                protocol_version=protocol_version, capabilities=capabilities, client_info=info
            )
        connection = cls(outbound, protocol_version=protocol_version, client_params=params)
        connection.client_capabilities = capabilities
        connection.initialized.set()
        return connection

    @classmethod
    def for_loop(
        cls, outbound: Outbound, *, session_id: str | None = None, protocol_version_hint: str | None = None
    ) -> Connection:
        """A connection for the handshake path: `protocol_version` is the hint (else the
        newest `initialize` negotiates) until the handshake settles it."""
        from ferrymcp import _version

        version = protocol_version_hint if protocol_version_hint is not None else _version.LATEST_HANDSHAKE_VERSION
        return cls(outbound, protocol_version=version, session_id=session_id)

    @property
    def has_standalone_channel(self) -> bool:
        """Whether the connection has a channel for server-initiated messages."""
        return self.outbound is not _NO_CHANNEL

    @property
    def initialize_accepted(self) -> bool:
        """Whether the client has identified itself or the handshake completed."""
        return self.client_params is not None or self.initialized.is_set()

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        """A request on the standalone channel (`NoBackChannelError` without one)."""
        return await self.outbound.send_raw_request(method, params, opts)

    async def send_request(self, req: Any, *, result_type: Any = None, opts: Any = None) -> Any:
        """A typed server-to-client request and its typed result (inferred for sampling,
        elicitation, roots and ping; `result_type=` for others)."""
        from ferrymcp import types

        known = {
            types.CreateMessageRequest: types.CreateMessageResult,
            types.ElicitRequest: types.ElicitResult,
            types.ListRootsRequest: types.ListRootsResult,
            types.PingRequest: types.EmptyResult,
        }
        model = result_type if result_type is not None else known[type(req)]
        params = req.params.model_dump(by_alias=True, exclude_none=True, mode="json") if req.params else None
        raw = await self.send_raw_request(req.method, params, opts)
        return model.model_validate(raw)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        """A best-effort notification on the standalone channel: dropped (debug-logged)
        when there is none or it closed, never raised."""
        try:
            await self.outbound.notify(method, params, opts)
        except Exception as error:
            # A closed stream: the OS's, or anyio's (an official `Outbound` raises those).
            closed = isinstance(error, ConnectionError) or type(error).__name__ in _CLOSED_STREAM
            if not closed:
                raise
            logger.debug("dropped %s: standalone stream closed", method)

    async def ping(self, *, meta: Mapping[str, Any] | None = None, opts: Any = None) -> None:
        """A `ping` on the standalone channel."""
        await self.send_raw_request("ping", _with_meta(None, meta), opts)

    async def log(
        self, level: str, data: Any, logger: str | None = None, *, meta: Mapping[str, Any] | None = None
    ) -> None:
        """A `notifications/message` on the standalone channel (best effort); from the
        2026-07-28 era, never sent: log delivery is per request there."""
        from ferrymcp.exceptions import MCPDeprecationWarning

        warnings.warn(
            "The logging capability is deprecated as of 2026-07-28 (SEP-2577).", MCPDeprecationWarning, stacklevel=2
        )
        if level not in allowed_log_levels(self.protocol_version, None):
            _logger.debug("dropped notifications/message: no connection-wide log delivery at %s", self.protocol_version)
            return
        params: dict[str, Any] = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        await self.notify("notifications/message", _with_meta(params, meta))

    async def send_tool_list_changed(self, *, meta: Mapping[str, Any] | None = None) -> None:
        await self.notify("notifications/tools/list_changed", _with_meta(None, meta))

    async def send_prompt_list_changed(self, *, meta: Mapping[str, Any] | None = None) -> None:
        await self.notify("notifications/prompts/list_changed", _with_meta(None, meta))

    async def send_resource_list_changed(self, *, meta: Mapping[str, Any] | None = None) -> None:
        await self.notify("notifications/resources/list_changed", _with_meta(None, meta))

    async def send_resource_updated(self, uri: str, *, meta: Mapping[str, Any] | None = None) -> None:
        await self.notify("notifications/resources/updated", _with_meta({"uri": uri}, meta))

    def check_capability(self, capability: Any) -> bool:
        """Whether the client declared every capability set in `capability` (as
        `ServerSession.check_client_capability`); `False` before it declared any."""
        if self.client_capabilities is None:
            return False
        declared = self.client_capabilities.model_dump(by_alias=True, exclude_none=True)
        wanted = capability.model_dump(by_alias=True, exclude_none=True)
        return all(key in declared for key in wanted)
