"""Turns the JSON arguments of a call into the keyword arguments of the user's function.

The engine has already checked the arguments against the input schema; what is left is
what pydantic's validation gives the official SDK's handlers: an `Enum` parameter gets
the member, a dataclass parameter an instance, a `tuple` a tuple, a `float` a float, a
`datetime` a datetime. Converters are worked out once per function at registration, and
a parameter whose type needs none (str, int, bool, dict, Any, ...) costs nothing per
call. The official SDK also parses a JSON string sent for a non-string parameter (some
clients send lists and objects that way); so does this binder.

Prompt arguments and URI template variables are strings on the wire; for those
(`strings=True`) numbers, booleans and the like are parsed from their text, as pydantic's
lax validation does for the official SDK.

Signatures that involve pydantic are validated by pydantic itself (`Input.validate`).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import typing
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

from ferrymcp import _typing as t
from ferrymcp._signature import EMPTY, Signature

Converter = Callable[[Any], Any]
_TRUE = {"true", "1", "yes", "on", "t", "y"}
_FALSE = {"false", "0", "no", "off", "f", "n"}


class Binder:
    """The keyword arguments of one function, from a call's JSON arguments."""

    def __init__(
        self,
        signature: Signature,
        *,
        context_param: str | None,
        validate: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        strings: bool = False,
        parse_json_strings: bool = True,
    ) -> None:
        self._context_param = context_param
        self._validate = validate
        self._params = [
            (
                param.name,
                None if validate else converter(param.annotation, strings),
                parse_json_strings and t.strip_annotated(param.annotation)[0] is not str,
                param.required,
            )
            for param in signature.parameters
        ]

    @property
    def names(self) -> list[str]:
        return [name for name, *_ in self._params]

    def __call__(self, arguments: dict[str, Any] | None, context: Any) -> dict[str, Any]:
        arguments = arguments or {}
        kwargs: dict[str, Any] = {}
        for name, convert, parse_json, required in self._params:
            if name not in arguments:
                if required and self._validate is None:
                    raise ValueError(f"missing required argument {name!r}")
                continue
            value = arguments[name]
            if parse_json and type(value) is str:
                value = _parse_json_string(value)
            if convert is not None:
                try:
                    value = convert(value)
                except (TypeError, ValueError, KeyError) as exc:
                    raise ValueError(f"invalid value for argument {name!r}: {exc}") from None
            kwargs[name] = value
        if self._validate is not None:
            kwargs = self._validate(kwargs)
        if self._context_param is not None:
            kwargs[self._context_param] = context
        return kwargs


_JSON_STARTS = ("[", "{", "t", "f", "n")
"""The first characters of JSON text that is not a string or a number."""


def _parse_json_string(value: str) -> Any:
    if not value.lstrip().startswith(_JSON_STARTS):
        return value
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return value
    return value if isinstance(parsed, (str, int, float)) else parsed


# ---------------------------------------------------------------------------------------
# Converters, one per annotation


def converter(tp: Any, strings: bool = False) -> Converter | None:
    """A function turning a JSON value into what `tp` declares, or `None` when the
    JSON value already is that."""
    return _Converters(strings).of(tp)


class _Later:
    """The converter of a class still being worked out (a recursive dataclass)."""

    def __init__(self) -> None:
        self.convert: Converter = _unbuilt


def _unbuilt(value: Any) -> Any:
    raise RuntimeError("converter used before it was built")


class _Converters:
    def __init__(self, strings: bool) -> None:
        self.strings = strings
        self._building: dict[type, _Later] = {}

    def of(self, tp: Any) -> Converter | None:
        tp, _ = t.strip_annotated(tp)
        if tp is EMPTY or tp is Any or tp is object or tp is str or tp is t.NoneType or tp is None:
            return None
        if tp in (int, float, bool):
            return _scalar(tp, self.strings)
        origin = get_origin(tp)
        if origin is not None:
            return self._generic(tp, origin)
        if not isinstance(tp, type):
            return None
        if t.is_enum_type(tp):
            return _enum(tp, self.strings)
        if tp is bytes:
            return lambda v: v.encode() if isinstance(v, str) else v
        special = _special(tp)
        if special is not None:
            return special
        if t.is_dataclass_type(tp) or t.is_typeddict(tp):
            return self._class(tp)
        return None

    def _generic(self, tp: Any, origin: Any) -> Converter | None:
        args = get_args(tp)
        if origin is Literal:
            return _literal(args, self.strings)
        if t.is_union(tp):
            return self._union(args)
        if origin in t.SEQUENCE_ORIGINS:
            item = self.of(args[0]) if args else None
            if item is None:
                return None
            return lambda v: [_apply(item, x) for x in v]
        if origin in t.SET_ORIGINS:
            item = self.of(args[0]) if args else None
            build = frozenset if origin is frozenset else set
            return lambda v: build(_apply(item, x) for x in v)
        if origin is tuple:
            return self._tuple(args)
        if origin in t.MAPPING_ORIGINS:
            key = _Converters(True).of(args[0]) if args else None
            value = self.of(args[1]) if len(args) == 2 else None
            if key is None and value is None:
                return None
            return lambda v: {_apply(key, k): _apply(value, x) for k, x in v.items()}
        return None

    def _union(self, arms: tuple[Any, ...]) -> Converter | None:
        plain = [arm for arm in arms if arm is not t.NoneType and arm is not None]
        converters = [(arm, self.of(arm)) for arm in plain]
        if all(convert is None for _, convert in converters):
            return None

        def convert(value: Any) -> Any:
            if value is None:
                return None
            for arm, arm_convert in converters:
                if arm_convert is None and _is_exactly(value, arm):
                    return value
            for _, arm_convert in converters:
                if arm_convert is not None:
                    try:
                        return arm_convert(value)
                    except (TypeError, ValueError, KeyError):
                        continue
            return value

        return convert

    def _tuple(self, args: tuple[Any, ...]) -> Converter:
        if len(args) == 2 and args[1] is Ellipsis:
            item = self.of(args[0])
            return lambda v: tuple(_apply(item, x) for x in v)
        items = [self.of(arg) for arg in args if arg != ()]
        return lambda v: tuple(_apply(c, x) for c, x in zip(items, v, strict=False)) if items else tuple(v)

    def _class(self, cls: type) -> Converter:
        building = self._building.get(cls)
        if building is not None:
            return lambda v: building.convert(v)
        cell = _Later()
        self._building[cls] = cell
        if t.is_typeddict(cls):
            keys = {key: self.of(hint) for key, (hint, _) in t.typeddict_keys(cls).items()}

            def from_dict(v: Any) -> Any:
                return {k: _apply(keys[k], x) for k, x in v.items() if k in keys}

            cell.convert = from_dict
        else:
            hints = t.class_hints(cls)
            fields = {f.name: self.of(hints.get(f.name, Any)) for f in dataclasses.fields(cls) if f.init}

            def from_object(v: Any) -> Any:
                if isinstance(v, cls):
                    return v
                return cls(**{k: _apply(fields[k], x) for k, x in v.items() if k in fields})

            cell.convert = from_object
        return cell.convert


def _apply(convert: Converter | None, value: Any) -> Any:
    return value if convert is None else convert(value)


def _is_exactly(value: Any, arm: Any) -> bool:
    arm, _ = t.strip_annotated(arm)
    if arm is int:
        return type(value) is int
    if isinstance(arm, type):
        return isinstance(value, arm)
    origin = get_origin(arm)
    return isinstance(value, origin) if isinstance(origin, type) else False


def _scalar(tp: type, strings: bool) -> Converter | None:
    if tp is float:
        return (lambda v: float(v)) if strings else (lambda v: float(v) if type(v) is int else v)
    if not strings:
        return None
    if tp is int:
        return lambda v: int(v) if isinstance(v, str) else v
    return _to_bool


def _to_bool(value: Any) -> Any:
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"{value!r} is not a boolean")
    return value


def _enum(cls: type[enum.Enum], strings: bool) -> Converter:
    by_text = {str(member.value): member for member in cls}

    def convert(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        try:
            return cls(value)
        except ValueError:
            if strings and isinstance(value, str) and value in by_text:
                return by_text[value]
            raise

    return convert


def _literal(values: tuple[Any, ...], strings: bool) -> Converter | None:
    table: dict[Any, Any] = {}
    for value in values:
        if isinstance(value, enum.Enum):
            table[value.value] = value
        if strings and not isinstance(value, str):
            table[str(value.value if isinstance(value, enum.Enum) else value)] = value
    if not table:
        return None
    return lambda v: table.get(v, v) if isinstance(v, typing.Hashable) else v


def _special(tp: type) -> Converter | None:
    """Converters for dates and times, UUIDs, paths and decimals (their modules are
    loaded whenever such an annotation exists)."""
    module = tp.__module__
    if module == "datetime":
        timedelta = t.loaded_class("datetime", "timedelta")
        if timedelta is not None and issubclass(tp, timedelta):
            return lambda v: timedelta(seconds=v) if isinstance(v, (int, float)) else v
        return _iso(tp)
    for module_name, name in (("uuid", "UUID"), ("decimal", "Decimal")):
        cls = t.loaded_class(module_name, name)
        if cls is not None and issubclass(tp, cls):
            return lambda v: cls(str(v)) if isinstance(v, (str, int, float)) else v
    pure_path = t.loaded_class("pathlib", "PurePath")
    if pure_path is not None and issubclass(tp, pure_path):
        path = t.loaded_class("pathlib", "Path")
        return lambda v: path(v) if isinstance(v, str) else v  # type: ignore[misc]
    return None


def _iso(cls: Any) -> Converter:
    def convert(value: Any) -> Any:
        if isinstance(value, str):
            return cls.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)
        return value

    return convert
