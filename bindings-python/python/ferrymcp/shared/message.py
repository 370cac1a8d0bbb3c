"""`SessionMessage` (`mcp.shared.message`): one JSON-RPC message on a user-made stream,
with the metadata the official transports attach."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class ClientMessageMetadata:
    """Metadata a client attaches to a message it sends."""

    resumption_token: str | None = None
    on_resumption_token_update: Callable[[str], Awaitable[None]] | None = None
    headers: dict[str, str] | None = None


@dataclass
class ServerMessageMetadata:
    """Metadata a server attaches to a message it sends."""

    related_request_id: str | int | None = None
    request_context: Any = None


@dataclass
class SessionMessage:
    """A JSON-RPC message (a `ferrymcp.types.JSONRPCMessage`) and its metadata."""

    message: Any
    metadata: ClientMessageMetadata | ServerMessageMetadata | None = None


__all__ = ["ClientMessageMetadata", "ServerMessageMetadata", "SessionMessage"]
