"""Which class each MCP method's messages are, as `ferrymcp.types.methods` (part of the
official `mcp_types.methods`).

Offered: the version-free maps from a method to the class of its request, notification
and result (`MONOLITH_*`), the methods whose results are cacheable or may ask for input,
and `is_input_required`. All are derived from the unions and classes of `ferrymcp.types`,
so they cannot disagree with them.

Not offered: the official module's per-revision tables (`CLIENT_REQUESTS[(method,
version)]`, ...) and the `parse_*` / `validate_*` / `serialize_server_result` functions
built on them. They gate each message by protocol revision, a rule that in ferrymcp
belongs to the engine (core/src/protocol), which applies it to every message it sends and
receives; a second copy here could drift from it. Reading one of those names raises an
AttributeError that says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, UnionType
from typing import Any, Final, Literal, TypeGuard, get_args

from ferrymcp import types

MONOLITH_REQUESTS: Final[Mapping[str, type[types.Request]]] = MappingProxyType(
    {arm._defaults["method"]: arm for arm in (*get_args(types.ClientRequest), *get_args(types.ServerRequest))}
)
"""Every request's class, by method."""

MONOLITH_NOTIFICATIONS: Final[Mapping[str, type[types.Notification]]] = MappingProxyType(
    {arm._defaults["method"]: arm for arm in (*get_args(types.ClientNotification), *get_args(types.ServerNotification))}
)
"""Every notification's class, by method."""

MONOLITH_RESULTS: Final[Mapping[str, type[types.Result] | UnionType]] = MappingProxyType(
    {
        "completion/complete": types.CompleteResult,
        "elicitation/create": types.ElicitResult,
        "initialize": types.InitializeResult,
        "logging/setLevel": types.EmptyResult,
        "ping": types.EmptyResult,
        "prompts/get": types.GetPromptResult | types.InputRequiredResult,
        "prompts/list": types.ListPromptsResult,
        "resources/list": types.ListResourcesResult,
        "resources/read": types.ReadResourceResult | types.InputRequiredResult,
        "resources/subscribe": types.EmptyResult,
        "resources/templates/list": types.ListResourceTemplatesResult,
        "resources/unsubscribe": types.EmptyResult,
        "roots/list": types.ListRootsResult,
        "sampling/createMessage": types.CreateMessageResult | types.CreateMessageResultWithTools,
        "server/discover": types.DiscoverResult,
        "subscriptions/listen": types.SubscriptionsListenResult,
        "tools/call": types.CallToolResult | types.InputRequiredResult,
        "tools/list": types.ListToolsResult,
    }
)
"""The class (or the union of classes) of each request's result, by the request's method."""


def _arms(row: type[types.Result] | UnionType) -> tuple[type[types.Result], ...]:
    return get_args(row) if isinstance(row, UnionType) else (row,)


CacheableMethod = Literal[
    "prompts/list", "resources/list", "resources/read", "resources/templates/list", "server/discover", "tools/list"
]

CACHEABLE_METHODS: Final[frozenset[str]] = frozenset(
    method
    for method, row in MONOLITH_RESULTS.items()
    if any(issubclass(arm, types.CacheableResult) for arm in _arms(row))
)
"""The methods whose results carry cache hints (2026-07-28)."""

INPUT_REQUIRED_METHODS: Final[frozenset[str]] = frozenset(
    method
    for method, row in MONOLITH_RESULTS.items()
    if any(issubclass(arm, types.InputRequiredResult) for arm in _arms(row))
)
"""The methods a server may answer with `InputRequiredResult` (2026-07-28)."""


def is_input_required(result: object) -> TypeGuard[types.InputRequiredResult | dict[str, Any]]:
    """Whether a result (a model or a wire dict) asks the client for input and a retry."""
    if isinstance(result, types.InputRequiredResult):
        return True
    return isinstance(result, Mapping) and result.get("resultType") == "input_required"


_PER_REVISION = frozenset(
    {
        "CLIENT_NOTIFICATIONS",
        "CLIENT_REQUESTS",
        "CLIENT_RESULTS",
        "SERVER_NOTIFICATIONS",
        "SERVER_REQUESTS",
        "SERVER_RESULTS",
        "SPEC_CLIENT_METHODS",
        "SPEC_CLIENT_NOTIFICATION_METHODS",
        "parse_client_notification",
        "parse_client_request",
        "parse_client_result",
        "parse_server_notification",
        "parse_server_request",
        "parse_server_result",
        "serialize_server_result",
        "validate_client_notification",
        "validate_client_request",
        "validate_client_result",
        "validate_server_result",
    }
)


def __getattr__(name: str) -> Any:
    if name in _PER_REVISION:
        raise AttributeError(
            f"ferrymcp.types.methods.{name}: the per-revision method tables and the checks built on them "
            "are the engine's (it applies them to every message); use the MONOLITH_* maps or the "
            "adapters of ferrymcp.types to read a message"
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CACHEABLE_METHODS",
    "INPUT_REQUIRED_METHODS",
    "MONOLITH_NOTIFICATIONS",
    "MONOLITH_REQUESTS",
    "MONOLITH_RESULTS",
    "CacheableMethod",
    "is_input_required",
]
