"""Resolver dependency injection (the official 2.3 `Resolve`, `Elicit`, `Sample`,
`ListRoots`), on ferrymcp's `Context`.

A tool parameter annotated `Annotated[T, Resolve(fn)]` is not an argument the model
supplies (it is left out of the input schema): before the tool body runs, `fn` runs and
its value fills the parameter. A resolver takes the tool's arguments by name, the
`Context`, and other resolvers' values (`Annotated[U, Resolve(g)]`), so resolvers form a
graph; each runs at most once per call. A resolver may return a request instead of a
value: `Elicit(message, Model)` asks the user (the consumer gets the accepted model, or
the whole `ElicitationResult` when its annotation says so; a declined or cancelled
elicitation otherwise fails the call), `Sample(messages, max_tokens=...)` samples the
client's model (`CreateMessageResult`), `ListRoots()` fetches the client's roots.

Each request goes through the `Context` (`ctx.elicit`, `ctx.session.create_message`,
`ctx.session.list_roots`), so the engine carries it in the request's era: a real
server-to-client request in a legacy session, an `input_required` round from 2026-07-28.
Nothing protocol-level is decided here; this module only plans and calls functions.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any, Generic, TypeVar, get_args, get_origin

from ferrymcp.context import Context
from ferrymcp.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitationResult,
    parse_answer,
    requested_schema,
)
from ferrymcp.server.mcpserver.exceptions import InvalidSignature, ToolError
from ferrymcp.types import ListRootsResult

T = TypeVar("T")


class Resolve:
    """Marker for `Annotated[T, Resolve(fn)]`: fill the parameter by running `fn`."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        if not callable(fn):
            raise TypeError(f"Resolve takes a function, not {type(fn).__name__}")
        self.fn = fn


class Elicit(Generic[T]):
    """Returned by a resolver: ask the user `message` for a `schema` model."""

    def __init__(self, message: str, schema: type[T]) -> None:
        self.message = message
        self.schema = schema


class Sample:
    """Returned by a resolver: sample the client's model (`sampling/createMessage`);
    the keywords are `ServerSession.create_message`'s."""

    def __init__(self, messages: list[Any], *, max_tokens: int, **options: Any) -> None:
        self.messages = messages
        self.max_tokens = max_tokens
        self.options = options


class ListRoots:
    """Returned by a resolver: fetch the client's roots (`roots/list`)."""


_OUTCOMES = (AcceptedElicitation, DeclinedElicitation, CancelledElicitation)


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(fn, "__call__", fn)  # noqa: B004
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception as error:
        raise InvalidSignature(f"cannot read the type hints of {getattr(fn, '__name__', fn)!r}: {error}") from error


def resolve_marker(hint: Any) -> Resolve | None:
    """The `Resolve` of an `Annotated[T, Resolve(fn)]` hint, if it is one."""
    if get_origin(hint) is Annotated:
        for extra in get_args(hint)[1:]:
            if isinstance(extra, Resolve):
                return extra
    return None


def resolved_parameters(fn: Callable[..., Any]) -> dict[str, tuple[Resolve, Any]]:
    """The parameters of `fn` filled by resolvers: name -> (marker, the consumer's type)."""
    found: dict[str, tuple[Resolve, Any]] = {}
    for name, hint in _hints(fn).items():
        marker = resolve_marker(hint) if name != "return" else None
        if marker is not None:
            found[name] = (marker, get_args(hint)[0])
    if found:
        _check_acyclic(fn, [])
    return found


def _check_acyclic(fn: Callable[..., Any], path: list[Callable[..., Any]]) -> None:
    if fn in path:
        raise InvalidSignature(f"Resolver {getattr(fn, '__name__', fn)!r} has a cyclic dependency")
    for name, hint in _hints(fn).items():
        marker = resolve_marker(hint) if name != "return" else None
        if marker is not None:
            _check_acyclic(marker.fn, [*path, fn])


def _wants_outcome(consumer: Any) -> bool:
    """Whether the consumer's type asks for the whole elicitation outcome."""
    origin = get_origin(consumer) or consumer
    if origin is ElicitationResult or consumer is ElicitationResult:
        return True
    if inspect.isclass(origin) and issubclass(origin, _OUTCOMES):
        return True
    args = get_args(consumer)
    return bool(args) and all(
        inspect.isclass(get_origin(a) or a) and issubclass(get_origin(a) or a, _OUTCOMES) for a in args
    )


class Resolution:
    """One call's resolvers: each runs once, each request is made once."""

    def __init__(self, arguments: dict[str, Any], context: Context[Any, Any] | None) -> None:
        self.arguments = arguments
        self.context = context
        self.values: dict[Callable[..., Any], Any] = {}
        # Each resolver's name, the key of its input (`module:qualname`, `#1`, `#2`, ...
        # after the first of resolvers sharing one), in the order they are first met.
        self.names: dict[Callable[..., Any], str] = {}

    async def fill(self, params: dict[str, tuple[Resolve, Any]]) -> dict[str, Any]:
        """The values of a function's resolved parameters."""
        return {name: await self.value(marker.fn, consumer, name) for name, (marker, consumer) in params.items()}

    async def value(self, fn: Callable[..., Any], consumer: Any, name: str) -> Any:
        if fn not in self.values:
            resolver = self._name(fn)
            self.values[fn] = await self._outcome(await self._run(fn), resolver)
        outcome = self.values[fn]
        if isinstance(outcome, _OUTCOMES):
            if _wants_outcome(consumer):
                return outcome
            if isinstance(outcome, AcceptedElicitation):
                return outcome.data
            raise ToolError(f"Resolver for parameter {name!r} could not resolve: elicitation was {outcome.action}")
        if _wants_outcome(consumer):
            # A value the resolver returned itself (nothing asked) is an accepted outcome,
            # as in the official SDK, so the consumer's accept branch takes it.
            return AcceptedElicitation(data=outcome)
        return outcome

    def _name(self, fn: Callable[..., Any]) -> str:
        if fn not in self.names:
            qualname = getattr(fn, "__qualname__", None) or type(fn).__qualname__
            module = getattr(fn, "__module__", None) or type(fn).__module__
            base = f"{module}:{qualname}"
            seen = sum(1 for name in self.names.values() if name == base or name.startswith(f"{base}#"))
            self.names[fn] = base if seen == 0 else f"{base}#{seen}"
        return self.names[fn]

    async def _run(self, fn: Callable[..., Any]) -> Any:
        kwargs: dict[str, Any] = {}
        hints = _hints(fn)
        for pname, param in inspect.signature(fn).parameters.items():
            hint = hints.get(pname)
            marker = resolve_marker(hint)
            if marker is not None:
                kwargs[pname] = await self.value(marker.fn, get_args(hint)[0], pname)
            elif hint is not None and _is_context(hint):
                kwargs[pname] = self.context
            elif pname in self.arguments:
                kwargs[pname] = self.arguments[pname]
            elif param.default is inspect.Parameter.empty and param.kind not in (
                inspect.Parameter.VAR_POSITIONAL,
                inspect.Parameter.VAR_KEYWORD,
            ):
                raise ToolError(
                    f"Resolver {getattr(fn, '__name__', fn)!r} needs {pname!r}, which is neither a tool argument, "
                    "the Context nor a resolved value"
                )
        result = fn(**kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result

    async def _outcome(self, value: Any, resolver: str) -> Any:
        if not isinstance(value, (Elicit, Sample, ListRoots)):
            return value
        context = self.context
        if context is None:
            raise ToolError("a resolver returned a client request, but the call has no Context")
        # A resolver's request is an input named by the resolver: a legacy session's
        # request, an `input_required` round at 2026-07-28 (as the official resolvers),
        # refused by the engine when the client did not declare what it needs.
        if isinstance(value, Elicit):
            params = {"mode": "form", "message": value.message, "requestedSchema": requested_schema(value.schema)}
            return parse_answer(value.schema, await context._resolver_input(resolver, "elicitation/create", params))
        if isinstance(value, Sample):
            return await context.session._create_message(
                value.messages, max_tokens=value.max_tokens, resolver=resolver, **value.options
            )
        return ListRootsResult.model_validate(await context._resolver_input(resolver, "roots/list", {}))


def _is_context(hint: Any) -> bool:
    origin = get_origin(hint) or hint
    return inspect.isclass(origin) and issubclass(origin, Context)


__all__ = [
    "AcceptedElicitation",
    "CancelledElicitation",
    "DeclinedElicitation",
    "Elicit",
    "ElicitationResult",
    "ListRoots",
    "Resolution",
    "Resolve",
    "Sample",
    "resolved_parameters",
]
