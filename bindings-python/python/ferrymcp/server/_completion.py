"""The completion handler: the official SDK's `handler(ref, argument, context)` in the
native shape `(params, native_ctx) -> CompleteResult dict`.

`ref` is a `PromptReference` or a `ResourceTemplateReference`, `argument` a
`CompletionArgument` (name and partial value), `context` a `CompletionContext` with the
arguments already given, or `None`. The handler returns a `Completion`, a list of
strings, or `None` (no suggestions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ferrymcp._convert import completion_result
from ferrymcp._signature import is_async_callable
from ferrymcp.types import CompleteRequestParams


def completion_handler(fn: Callable[..., Any]) -> tuple[Callable[..., Any], bool]:
    """The native handler for a completion function, and whether it is async."""

    def arguments(params: dict[str, Any]) -> tuple[Any, Any, Any]:
        request = CompleteRequestParams.model_validate(params)
        return request.ref, request.argument, request.context

    if is_async_callable(fn):

        async def complete_async(params: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            return completion_result(await fn(*arguments(params)))

        return complete_async, True

    def complete(params: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
        return completion_result(fn(*arguments(params)))

    return complete, False
