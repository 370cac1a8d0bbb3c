"""A tool from a function: its definition (name, description, schemas) and its handler.

The name, description and schemas come from the function (its name, docstring and type
hints, see `_schema`) unless given. The handler has the native shape
`(arguments, native_ctx) -> CallToolResult dict`: it binds the arguments (`_args`),
injects the `Context`, calls the function and converts what it returns (`_convert`). A
sync function's handler is sync, so the engine runs it on a worker thread; an async
function's handler is a coroutine function, run on the serving event loop. An exception
raised by the function is left to the engine, which makes it an `isError` result (or
the exact JSON-RPC error of an `McpError`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ferrymcp import _schema
from ferrymcp._args import Binder
from ferrymcp._convert import tool_result
from ferrymcp._media import Audio, Image
from ferrymcp._signature import function_name, is_async_callable, read_signature
from ferrymcp.context import find_context_parameter
from ferrymcp.server._registry import Registration
from ferrymcp.server.auth.middleware.auth_context import bind_token, unbind_token
from ferrymcp.types import AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent

CONTENT_TYPES: tuple[type, ...] = (
    TextContent,
    ImageContent,
    AudioContent,
    ResourceLink,
    EmbeddedResource,
    Image,
    Audio,
)
ContextFactory = Callable[[Any], Any]


def wire(value: Any) -> Any:
    """A wire model (ours or the official SDK's), or a list of them, as plain JSON."""
    if isinstance(value, (list, tuple)):
        return [wire(item) for item in value]
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else value


def build_tool(
    fn: Callable[..., Any],
    contexts: ContextFactory,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    annotations: Any = None,
    icons: list[Any] | None = None,
    meta: dict[str, Any] | None = None,
    structured_output: bool | None = None,
    input_schema: dict[str, Any] | None = None,
    execution: Any = None,
    task_start: str = "at_call",
    v1: bool = False,
) -> Registration:
    """The registration of `fn` as a tool; raises `ValueError` naming the function when
    its signature cannot be a tool. `v1`: its output schema as `mcp` 1.x's `FastMCP`
    derives it."""
    tool_name = name or function_name(fn)
    if tool_name == "<lambda>":
        raise ValueError("You must provide a name for lambda functions")
    from ferrymcp.shared.tool_name_validation import validate_and_warn_tool_name

    validate_and_warn_tool_name(tool_name)
    from ferrymcp.server.mcpserver.resolve import resolved_parameters

    context_param = find_context_parameter(fn)
    resolved = resolved_parameters(fn)
    skip = [*resolved, *([context_param] if context_param else [])]
    signature = read_signature(fn, skip=skip)
    if input_schema is None:
        spec = _schema.tool_input(signature)
        schema, validate = spec.schema, spec.validate
    else:
        schema, validate = input_schema, None
    output = _schema.output(signature, structured_output, CONTENT_TYPES, v1)
    definition: dict[str, Any] = {"name": tool_name}
    if title is not None:
        definition["title"] = title
    definition["description"] = description or fn.__doc__ or ""
    definition["inputSchema"] = schema
    if output is not None:
        definition["outputSchema"] = output.schema
    if annotations is not None:
        definition["annotations"] = wire(annotations)
    if icons:
        definition["icons"] = wire(icons)
    if meta is not None:
        definition["_meta"] = meta
    if execution is not None:
        # `execution.taskSupport`: the engine runs the tool as a task (tasks extension)
        # for a client that accepts tasks.
        definition["execution"] = wire(execution)
    if input_schema is not None and signature.takes_var_keyword:
        binder: Callable[[dict[str, Any] | None, Any], dict[str, Any]] = _pass_through(context_param)
    else:
        binder = Binder(signature, context_param=context_param, validate=validate)
    if resolved:
        handler, is_async = _resolving_handler(fn, binder, output, contexts, context_param, resolved), True
    else:
        handler, is_async = _handler(fn, binder, output, contexts, context_param is not None)
    wording = _argument_wording(signature) if input_schema is None else None
    return Registration("tool", tool_name, definition, handler, is_async, fn, task_start, wording)


def _argument_wording(signature: Any) -> Callable[[dict[str, Any]], str | None]:
    """pydantic's words for the arguments the engine finds invalid, as the official
    `MCPServer` words them (`_schema_pydantic.argument_wording`; pydantic is imported on
    the first invalid call, not at registration). `None` without pydantic: the engine's
    words stand."""
    word: Callable[[dict[str, Any]], str | None] | None = None

    def lazily(arguments: dict[str, Any]) -> str | None:
        nonlocal word
        if word is None:
            try:
                from ferrymcp import _schema_pydantic
            except ImportError:
                return None
            word = _schema_pydantic.argument_wording(signature)
        return word(arguments)

    return lazily


def _bind(
    binder: Callable[[dict[str, Any] | None, Any], dict[str, Any]], arguments: dict[str, Any] | None, context: Any
) -> dict[str, Any]:
    """The function's arguments; arguments it cannot take are the caller's mistake, for
    the model to read and correct (a `ToolError`, as the official SDK reports them), not
    a crash of the tool."""
    try:
        return binder(arguments, context)
    except Exception as exc:
        from ferrymcp.server.mcpserver.exceptions import ToolError

        raise ToolError(str(exc)) from exc


def _pass_through(context_param: str | None) -> Callable[[dict[str, Any] | None, Any], dict[str, Any]]:
    """For a tool with an explicit input schema and `**kwargs`: every argument as is."""

    def bind(arguments: dict[str, Any] | None, context: Any) -> dict[str, Any]:
        kwargs = dict(arguments or {})
        if context_param is not None:
            kwargs[context_param] = context
        return kwargs

    return bind


def _handler(
    fn: Callable[..., Any],
    binder: Callable[[dict[str, Any] | None, Any], dict[str, Any]],
    output: _schema.Output | None,
    contexts: ContextFactory,
    wants_context: bool,
) -> tuple[Callable[..., Any], bool]:
    if is_async_callable(fn):

        async def call_async(arguments: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            kwargs = _bind(binder, arguments, contexts(native_ctx) if wants_context else None)
            auth = bind_token(native_ctx)
            try:
                return tool_result(await fn(**kwargs), output)
            finally:
                unbind_token(auth)

        return call_async, True

    def call(arguments: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
        kwargs = _bind(binder, arguments, contexts(native_ctx) if wants_context else None)
        auth = bind_token(native_ctx)
        try:
            return tool_result(fn(**kwargs), output)
        finally:
            unbind_token(auth)

    return call, False


def _resolving_handler(
    fn: Callable[..., Any],
    binder: Callable[[dict[str, Any] | None, Any], dict[str, Any]],
    output: _schema.Output | None,
    contexts: ContextFactory,
    context_param: str | None,
    resolved: dict[str, Any],
) -> Callable[..., Any]:
    """The handler of a tool with `Resolve(...)` parameters: the resolvers run on the
    serving loop before the body (a sync body then runs on a worker thread)."""
    from ferrymcp.server.mcpserver.resolve import Resolution

    async def call(arguments: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
        context = contexts(native_ctx)
        kwargs = _bind(binder, arguments, context if context_param is not None else None)
        auth = bind_token(native_ctx)
        try:
            kwargs.update(await Resolution(dict(arguments or {}), context).fill(resolved))
            if is_async_callable(fn):
                value = await fn(**kwargs)
            else:
                value = await _in_thread(fn, kwargs)
            return tool_result(value, output)
        finally:
            unbind_token(auth)

    return call


async def _in_thread(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    """`fn(**kwargs)` off the event loop when one runs (asyncio's or trio's; else inline)."""
    from ferrymcp import _aio

    try:
        _aio.library()
    except RuntimeError:
        return fn(**kwargs)
    return await _aio.to_thread(functools.partial(fn, **kwargs))
