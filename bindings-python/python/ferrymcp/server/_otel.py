"""`OpenTelemetryMiddleware` (`mcp.server._otel`): one `SERVER` span per inbound message,
with the official SDK's span names and attributes.

The span is named after the method and its target (`tools/call search_books`, a bare
`tools/list`) and carries `mcp.method.name`, `mcp.protocol.version`, the request's
`jsonrpc.request.id`, and GenAI keys on `tools/call` (`gen_ai.operation.name`,
`gen_ai.tool.name`) and `prompts/get` (`gen_ai.prompt.name`). An error answer sets the
status to error with the JSON-RPC code as `error.type` and `rpc.response.status_code`; a
tool result with `isError` sets it with `error.type = "tool_error"`. A W3C trace context in
the request's `_meta` (`traceparent`, `tracestate`) parents the span; without one the span
nests under whatever span is current.

It is a middleware like any other: the server's list holds one by default (first), and
taking it off the list turns tracing off. Each message's span is current while the rest of
the chain and the handler run (the engine carries the middleware's context into the
handler's task), so spans a tool starts are its children. `opentelemetry` is imported on
first use, not with `ferrymcp`: with `opentelemetry-api` absent the middleware passes
messages through, and a server whose list holds nothing but this middleware skips the hook
altogether while no tracer provider is set when it starts serving
(`ferrymcp.shared._otel.tracing_active`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ferrymcp.exceptions import McpError
from ferrymcp.server.context import CallNext, HandlerResult, ServerRequestContext
from ferrymcp.shared._otel import TRACER_NAME, extract_trace_context

__all__ = ["OpenTelemetryMiddleware"]


def _is_tool_error(result: Any) -> bool:
    if isinstance(result, Mapping):
        return result.get("isError") is True
    return getattr(result, "is_error", None) is True


class OpenTelemetryMiddleware:
    """Middleware that wraps each inbound message in an OpenTelemetry `SERVER` span (see
    the module doc)."""

    def __init__(self) -> None:
        self._tracer: Any = None

    def _get_tracer(self) -> Any:
        if self._tracer is None:
            try:
                from opentelemetry.trace import get_tracer
            except ImportError:
                self._tracer = False
            else:
                self._tracer = get_tracer(TRACER_NAME)
        return self._tracer

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        tracer = self._get_tracer()
        if tracer is False:
            return await call_next(ctx)
        from opentelemetry.trace import SpanKind, StatusCode

        name = ctx.params.get("name") if ctx.params else None
        target = name if isinstance(name, str) else None
        attributes: dict[str, Any] = {"mcp.method.name": ctx.method, "mcp.protocol.version": ctx.protocol_version}
        if ctx.request_id is not None:
            attributes["jsonrpc.request.id"] = str(ctx.request_id)
        if ctx.method == "tools/call":
            attributes["gen_ai.operation.name"] = "execute_tool"
            if target is not None:
                attributes["gen_ai.tool.name"] = target
        elif ctx.method == "prompts/get" and target is not None:
            attributes["gen_ai.prompt.name"] = target

        with tracer.start_as_current_span(
            f"{ctx.method} {target}" if target else ctx.method,
            kind=SpanKind.SERVER,
            attributes=attributes,
            context=extract_trace_context(ctx.meta),
            record_exception=False,
            set_status_on_exception=False,
        ) as span:
            try:
                result = await call_next(ctx)
            except McpError as error:
                code = str(error.code)
                span.set_attributes({"error.type": code, "rpc.response.status_code": code})
                span.set_status(StatusCode.ERROR, error.message)
                raise
            except Exception as error:
                span.set_attribute("error.type", type(error).__qualname__)
                span.record_exception(error)
                span.set_status(StatusCode.ERROR, str(error))
                raise
            if ctx.method == "tools/call" and _is_tool_error(result):
                span.set_attribute("error.type", "tool_error")
                span.set_status(StatusCode.ERROR)
            return result
