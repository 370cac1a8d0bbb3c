"""`TransportContext` (the official `mcp.shared.transport_context`): what the transport
says about one inbound message. ferrymcp's engine fills it; a program reads it (from a
context's `transport`) or subclasses it in its annotations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["TransportContext"]


@dataclass(kw_only=True, frozen=True)
class TransportContext:
    """The transport's facts about one inbound message: its `kind` (`"stdio"`,
    `"streamable-http"`, ...), whether a request can be sent back on its channel, and the
    HTTP request headers when there are any (`None` on stdio)."""

    kind: str
    can_send_request: bool
    headers: Mapping[str, str] | None = None
