"""OpenTelemetry helpers (`mcp.shared._otel`): a span, and the W3C trace context carried in
a message's `_meta` (SEP-414). `opentelemetry` is imported when one of them is first used,
never with `ferrymcp`."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import Any

TRACER_NAME = "mcp-python-sdk"
"""The instrumentation scope of the official SDK's spans, kept so that a backend groups
ferrymcp's spans with theirs."""


def tracing_active() -> bool:
    """Whether spans would be recorded now: `opentelemetry` is loaded (whatever configures
    tracing imports it) and a tracer provider has been set. Without a provider a span is
    a non-recording no-op, so the caller may skip making one."""
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return False
    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


@contextmanager
def otel_span(
    name: str,
    *,
    kind: Any,
    attributes: dict[str, Any] | None = None,
    context: Any = None,
    record_exception: bool = True,
    set_status_on_exception: bool = True,
) -> Iterator[Any]:
    """A span of the `mcp-python-sdk` tracer, current while the block runs."""
    from opentelemetry.trace import get_tracer

    with get_tracer(TRACER_NAME).start_as_current_span(
        name,
        kind=kind,
        attributes=attributes,
        context=context,
        record_exception=record_exception,
        set_status_on_exception=set_status_on_exception,
    ) as span:
        yield span


def inject_trace_context(meta: MutableMapping[str, Any]) -> None:
    """Writes the current W3C trace context (`traceparent`, `tracestate`) into `meta`."""
    from opentelemetry.propagate import inject

    inject(meta)


def extract_trace_context(meta: Mapping[str, Any] | None) -> Any:
    """The W3C trace context a `_meta` carries, or `None` when there is none or it is not
    valid (a span then nests under the current one rather than starting an orphan trace)."""
    if not meta:
        return None
    from opentelemetry.propagate import extract
    from opentelemetry.trace import get_current_span

    try:
        context = extract(meta)
    except (ValueError, TypeError):
        return None
    if not get_current_span(context).get_span_context().is_valid:
        return None
    return context
