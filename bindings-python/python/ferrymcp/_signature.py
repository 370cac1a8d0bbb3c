"""Reads a handler function's signature once, for the schema builder and the binder.

The official SDK evaluates string annotations (`inspect.signature(eval_str=True)`) and
refuses parameters whose names start with `_`; a name or annotation that cannot be
resolved fails at registration with a message naming the function.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

EMPTY: Any = inspect.Parameter.empty


@dataclass(frozen=True)
class Parameter:
    """One argument a client passes: a parameter of the function that is not the
    injected `Context`."""

    name: str
    annotation: Any
    default: Any

    @property
    def required(self) -> bool:
        return self.default is EMPTY


@dataclass(frozen=True)
class Signature:
    name: str
    parameters: tuple[Parameter, ...]
    return_annotation: Any
    takes_var_keyword: bool


def function_name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def read_signature(fn: Callable[..., Any], skip: Collection[str] = ()) -> Signature:
    """The parameters of `fn` (minus `skip`) and its return annotation, evaluated."""
    name = function_name(fn)
    try:
        signature = inspect.signature(fn, eval_str=True)
    except (NameError, TypeError, SyntaxError) as exc:
        raise ValueError(f"function {name!r}: cannot evaluate its type annotations: {exc}") from exc
    parameters = []
    for param in signature.parameters.values():
        if param.name in skip:
            continue
        if param.name.startswith("_"):
            raise ValueError(f"function {name!r}: parameter {param.name!r} cannot start with '_'")
        parameters.append(Parameter(param.name, param.annotation, param.default))
    var_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
    return Signature(name, tuple(parameters), signature.return_annotation, var_keyword)


def is_async_callable(fn: Any) -> bool:
    """Whether calling `fn` gives a coroutine: an `async def`, a partial of one, or an
    object whose `__call__` is one."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(type(fn).__call__)
