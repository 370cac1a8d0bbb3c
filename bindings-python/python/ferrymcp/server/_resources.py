"""A resource, or a resource template, from a function.

The URI decides: with `{variables}` it is a template, whose variables must be exactly
the function's parameters (the `Context` aside), and whose query variables (`{?q}`)
need defaults because a client may leave them out; without, it is a static resource,
whose function takes no parameters. Both mistakes fail at registration, naming the
function. The handler has the native shape `(uri, variables, native_ctx) ->
ReadResourceResult dict`; template variables arrive as strings and are converted to the
parameter types.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ferrymcp._args import Binder
from ferrymcp._convert import resource_result
from ferrymcp._signature import EMPTY, function_name, is_async_callable, read_signature
from ferrymcp.context import find_context_parameter
from ferrymcp.exceptions import ResourceNotFound
from ferrymcp.server._registry import Registration
from ferrymcp.server._resource_security import DEFAULT_RESOURCE_SECURITY, ResourceSecurity
from ferrymcp.server._tools import ContextFactory, wire
from ferrymcp.server.auth.middleware.auth_context import bind_token, unbind_token


def build_resource(
    fn: Callable[..., Any],
    uri: str,
    contexts: ContextFactory,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
    icons: list[Any] | None = None,
    annotations: Any = None,
    meta: dict[str, Any] | None = None,
    security: ResourceSecurity = DEFAULT_RESOURCE_SECURITY,
) -> Registration:
    """The registration of `fn` as the resource (or template) `uri`; a template's
    variables are checked against `security` before `fn` sees them."""
    resource_name = name or function_name(fn)
    if resource_name == "<lambda>":
        raise ValueError("You must provide a name for lambda functions")
    from ferrymcp.shared.uri_template import UriTemplate

    parsed = UriTemplate.parse(uri)
    variables = parsed.variable_names
    context_param = find_context_parameter(fn)
    signature = read_signature(fn, skip=[context_param] if context_param else [])
    params = {param.name for param in signature.parameters}
    if variables:
        if set(variables) != params:
            raise ValueError(f"Mismatch between URI parameters {set(variables)} and function parameters {params}")
        defaults = {p.name: p.default for p in signature.parameters}
        missing = sorted(name for name in parsed.query_variable_names if defaults[name] is EMPTY)
        if missing:
            raise ValueError(
                f"Resource {uri!r}: query parameter(s) {missing} have no default value. A client may omit a "
                "{?...}/{&...} query parameter, so the matching handler parameter must declare a default."
            )
    elif params:
        raise ValueError(
            f"Resource {uri!r} has no URI template variables, but the handler declares parameters {params}. "
            "Add matching {...} variables to the URI or remove the parameters."
        )
    elif context_param is not None:
        raise ValueError(
            f"Resource {uri!r} has no URI template variables, but the handler declares a Context parameter. "
            "Context injection for static resources is not supported. Add a template variable to the URI or "
            "remove the Context parameter."
        )

    mime = mime_type or "text/plain"
    definition: dict[str, Any] = {"uriTemplate" if variables else "uri": uri, "name": resource_name}
    if title is not None:
        definition["title"] = title
    definition["description"] = description or fn.__doc__ or ""
    definition["mimeType"] = mime
    if icons:
        definition["icons"] = wire(icons)
    if annotations is not None:
        definition["annotations"] = wire(annotations)
    if meta is not None:
        definition["_meta"] = meta

    binder = Binder(signature, context_param=context_param, strings=True, parse_json_strings=False)
    wants_context = context_param is not None

    def bind_args(uri: str, variables: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
        if variables and security.failing_param(variables) is not None:
            raise ResourceNotFound(uri)
        return binder(variables, contexts(native_ctx) if wants_context else None)

    if is_async_callable(fn):

        async def read_async(uri: str, variables: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            kwargs = bind_args(uri, variables, native_ctx)
            auth = bind_token(native_ctx)
            try:
                return resource_result(await fn(**kwargs), uri, mime, meta)
            except ResourceNotFound as missing:
                missing.uri = missing.uri or uri
                raise
            finally:
                unbind_token(auth)

        handler: Callable[..., Any] = read_async
    else:

        def read(uri: str, variables: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            kwargs = bind_args(uri, variables, native_ctx)
            auth = bind_token(native_ctx)
            try:
                return resource_result(fn(**kwargs), uri, mime, meta)
            except ResourceNotFound as missing:
                missing.uri = missing.uri or uri
                raise
            finally:
                unbind_token(auth)

        handler = read
    kind = "template" if variables else "resource"
    return Registration(kind, uri, definition, handler, is_async_callable(fn), fn)
