"""A prompt from a function: its arguments come from the parameters, its messages from
what the function returns (`_convert.prompt_result`).

Prompt arguments are strings on the wire; they are converted to the parameter types. A
missing required argument is answered with an invalid-params error naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ferrymcp import _schema, types
from ferrymcp._args import Binder
from ferrymcp._convert import prompt_result
from ferrymcp._signature import function_name, is_async_callable, read_signature
from ferrymcp.context import find_context_parameter
from ferrymcp.exceptions import McpError
from ferrymcp.server._registry import Registration
from ferrymcp.server._tools import ContextFactory, wire
from ferrymcp.server.auth.middleware.auth_context import bind_token, unbind_token


def build_prompt(
    fn: Callable[..., Any],
    contexts: ContextFactory,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    icons: list[Any] | None = None,
) -> Registration:
    """The registration of `fn` as a prompt."""
    prompt_name = name or function_name(fn)
    if prompt_name == "<lambda>":
        raise ValueError("You must provide a name for lambda functions")
    context_param = find_context_parameter(fn)
    signature = read_signature(fn, skip=[context_param] if context_param else [])
    spec = _schema.tool_input(signature)
    properties = spec.schema.get("properties", {})
    required_names = set(spec.schema.get("required", []))
    arguments = []
    for arg_name, prop in properties.items():
        argument: dict[str, Any] = {"name": arg_name}
        if prop.get("description") is not None:
            argument["description"] = prop["description"]
        argument["required"] = arg_name in required_names
        arguments.append(argument)
    prompt_description = description or fn.__doc__ or ""
    definition: dict[str, Any] = {"name": prompt_name}
    if title is not None:
        definition["title"] = title
    definition["description"] = prompt_description
    definition["arguments"] = arguments
    if icons:
        definition["icons"] = wire(icons)

    binder = Binder(
        signature, context_param=context_param, validate=spec.validate, strings=True, parse_json_strings=False
    )
    wants_context = context_param is not None

    def bind_args(arguments: dict[str, Any] | None, native_ctx: Any) -> dict[str, Any]:
        missing = sorted(required_names - set(arguments or {}))
        if missing:
            raise McpError(types.INVALID_PARAMS, f"Missing required arguments: {missing}", None)
        return binder(arguments, contexts(native_ctx) if wants_context else None)

    if is_async_callable(fn):

        async def get_async(arguments: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            kwargs = bind_args(arguments, native_ctx)
            auth = bind_token(native_ctx)
            try:
                return prompt_result(await fn(**kwargs), prompt_description)
            finally:
                unbind_token(auth)

        handler: Callable[..., Any] = get_async
    else:

        def get(arguments: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            kwargs = bind_args(arguments, native_ctx)
            auth = bind_token(native_ctx)
            try:
                return prompt_result(fn(**kwargs), prompt_description)
            finally:
                unbind_token(auth)

        handler = get
    return Registration("prompt", prompt_name, definition, handler, is_async_callable(fn), fn)
