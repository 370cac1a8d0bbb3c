"""The base of ferrymcp's wire types: plain classes that read and write MCP JSON.

`import ferrymcp` must stay fast and pydantic is not a dependency, yet code written
against the official SDK's types (pydantic models) calls `model_validate`,
`model_dump(by_alias=True, exclude_none=True)` and reads v2 snake_case attributes (v1
code reads camelCase ones). `WireModel` gives exactly that surface and no more:

- fields are the class annotations; a field without a class default is required;
- the wire name of a field is its camelCase form (`meta` is `_meta`); both spellings are
  accepted by the constructor and readable as attributes;
- nested values are converted by their annotations (a dict under a `TextContent`
  annotation becomes a `TextContent`; a union of models is resolved by its `Literal`
  fields such as `type` or `mode`, then by required fields);
- unknown wire keys are kept and written back, so a newer peer's fields survive a round
  trip;
- instances compare equal by value and print readably;
- `Model.model_fields` describes the fields (annotation, default, alias, `is_required()`).

`UnionAdapter` stands in for the official `TypeAdapter`s over the message unions
(`client_request_adapter`, ...): it reads a wire dict as the right member class.

Type hints are resolved on first use of a class, not at import.
"""

from __future__ import annotations

import copy
import inspect
import json
import types
import typing
from collections.abc import Iterator
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

_MISSING: Any = object()
_M = TypeVar("_M", bound="WireModel")


def _missing_fields(model: str, missing: list[str], data: dict[str, Any]) -> ValueError:
    """The error for required fields left out: pydantic's `ValidationError` (a `ValueError`,
    worded as the official models' is: `redirect_uris\\n  Field required`) when pydantic is
    installed, which code written for the official SDK catches and matches; else a
    `ValueError` naming them."""
    try:
        from pydantic_core import ValidationError
    except ImportError:
        names = ", ".join(repr(name) for name in missing)
        fields = f"fields {names} are" if len(missing) > 1 else f"field {names} is"
        return ValueError(f"{model}: the {fields} required")
    errors: list[Any] = [{"type": "missing", "loc": (name,), "input": data} for name in missing]
    return ValidationError.from_exception_data(model, errors)


class WireField:
    """What `Model.model_fields[name]` tells about a field (pydantic's `FieldInfo` names)."""

    def __init__(self, annotation: Any, default: Any, alias: str) -> None:
        self.annotation = annotation
        self.default = None if default is _MISSING else default
        self.alias = alias
        self._required = default is _MISSING

    def is_required(self) -> bool:
        return self._required

    def __repr__(self) -> str:
        return f"WireField(annotation={self.annotation!r}, alias={self.alias!r}, required={self._required})"


class _ModelFields:
    """`Model.model_fields`: the fields by name, read on the class (as pydantic offers)."""

    def __get__(self, _obj: object, owner: type[WireModel]) -> dict[str, WireField]:
        hints = owner._resolved_hints()
        return {name: WireField(hints[name], owner._defaults[name], owner._wire[name]) for name in owner._fields}


def wire_name(field: str) -> str:
    """The JSON key of a field: camelCase, and `_meta` for `meta`."""
    if field == "meta":
        return "_meta"
    head, *rest = field.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class WireModel:
    """A record of the MCP wire format with a pydantic-like surface (see the module doc)."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _wire: ClassVar[dict[str, str]] = {}
    _lookup: ClassVar[dict[str, str]] = {}
    _defaults: ClassVar[dict[str, Any]] = {}
    _hints: ClassVar[dict[str, Any] | None] = None
    # Fields whose unset value (`None`) means a value the protocol names: an absent
    # `resultType` is `"complete"`. Such a field compares equal either way, so a result read
    # from a 2026-07-28 wire (which carries it) equals one built without it, as the official
    # models (which default to that value) do.
    _absent_means: ClassVar[dict[str, Any]] = {}
    # Fields declared with pydantic's `Field(...)` (a subclass of the application's own,
    # as the official documentation writes them), and their validators (see `_field_checks`).
    _declared: ClassVar[dict[str, Any]] = {}
    _checks: ClassVar[dict[str, Any] | None] = None
    model_fields: ClassVar[_ModelFields] = _ModelFields()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The fields of the classes up the MRO, in order. Under one base, that base's tables
        # are already those of every class above it: only this class's annotations are
        # read (most of the 164 wire types are made at import, several levels deep).
        (base,) = cls.__bases__ if len(cls.__bases__) == 1 else (None,)
        if base is not None and issubclass(base, WireModel):
            defaults: dict[str, Any] = dict(base._defaults)
            declared: dict[str, Any] = dict(base._declared)
            klasses: Any = (cls,)
        else:
            defaults, declared, klasses = {}, {}, reversed(cls.__mro__)
        for klass in klasses:
            for name, hint in inspect.get_annotations(klass).items():
                if name.startswith("_") or "ClassVar" in str(hint):
                    continue
                given = klass.__dict__.get(name, defaults.get(name, _MISSING))
                if name in klass.__dict__:
                    declared.pop(name, None)
                    if _is_pydantic_field(given):
                        declared[name] = given
                        given = _field_default(given, klass.__name__, name)
                defaults[name] = given
        cls._fields = tuple(defaults)
        cls._declared = declared
        cls._checks = None
        cls._defaults = defaults
        cls._wire = {name: wire_name(name) for name in defaults}
        cls._lookup = {**{name: name for name in defaults}, **{w: n for n, w in cls._wire.items()}}
        cls._hints = None

    def __init__(self, **data: Any) -> None:
        cls = type(self)
        hints = cls._resolved_hints()
        values: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, value in data.items():
            name = cls._lookup.get(key)
            if name is None:
                extra[key] = value
            else:
                values[name] = coerce(value, hints[name])
        if cls._declared:
            for name, check in cls._field_checks().items():
                if name in values:
                    values[name] = check.validate_python(values[name])
        given = frozenset(values)
        missing = [cls._wire[name] for name in cls._fields if name not in values and cls._defaults[name] is _MISSING]
        if missing:
            raise _missing_fields(cls.__name__, missing, data)
        for name in cls._fields:
            if name not in values:
                default = cls._defaults[name]
                if isinstance(default, _Factory):
                    default = default.make()
                values[name] = copy.copy(default) if isinstance(default, (list, dict)) else default
        self.__dict__.update(values)
        self.__dict__["_extra"] = extra
        self.__dict__["_set"] = given

    @classmethod
    def _resolved_hints(cls) -> dict[str, Any]:
        hints = cls.__dict__.get("_hints")
        if hints is None:
            resolved = typing.get_type_hints(cls)
            hints = {name: resolved[name] for name in cls._fields}
            cls._hints = hints
        return hints

    @classmethod
    def _field_checks(cls) -> dict[str, Any]:
        """pydantic's validators of the fields declared with pydantic's `Field(...)` with
        constraints (`ge=`, `max_length=`...: the field's type with them), made on first
        use: the official models check them, so these fields are checked too."""
        checks = cls.__dict__.get("_checks")
        if checks is None:
            from typing import Annotated

            from pydantic import ConfigDict, TypeAdapter

            hints = cls._resolved_hints()
            checks = {}
            for name, field in cls._declared.items():
                if not field.metadata:  # no constraint (only a default, a description...)
                    continue
                try:
                    title = ConfigDict(title=f"{cls.__name__}.{name}")
                    constrained: Any = Annotated[hints[name], field]
                    checks[name] = TypeAdapter(constrained, config=title)
                except Exception as exc:
                    raise TypeError(
                        f"{cls.__name__}.{name}: pydantic's Field(...) constraints apply to fields of plain "
                        f"types here (bool, int, str, lists and dicts of them...), not {hints[name]!r}"
                    ) from exc
            cls._checks = checks
        return checks

    # -- the pydantic-like surface ---------------------------------------------------

    @classmethod
    def model_validate(cls: type[_M], obj: Any, **_options: Any) -> _M:
        """Builds an instance from a wire dict (either spelling of each key), an
        instance, or another library's model with a `model_dump` (such as the official
        SDK's types)."""
        if isinstance(obj, cls):
            return obj
        if isinstance(obj, dict):
            return cls(**obj)
        dump = getattr(obj, "model_dump", None)
        if callable(dump):
            return cls(**dump(by_alias=True, exclude_none=True))
        raise TypeError(f"{cls.__name__}.model_validate needs a dict, not {type(obj).__name__}")

    @classmethod
    def model_validate_json(cls: type[_M], data: str | bytes, **_options: Any) -> _M:
        """Builds an instance from JSON text."""
        return cls.model_validate(json.loads(data))

    def model_dump(
        self,
        *,
        mode: str = "python",
        by_alias: bool = False,
        exclude_none: bool = False,
        exclude_defaults: bool = False,
        exclude_unset: bool = False,
        exclude: set[str] | None = None,
        **_options: Any,
    ) -> dict[str, Any]:
        """A dict of the fields (wire names with `by_alias=True`); unknown wire keys
        that came in are included under their own names."""
        flags = (by_alias, exclude_none, exclude_defaults, exclude_unset, mode == "json")
        out: dict[str, Any] = {}
        cls = type(self)
        state = self.__dict__
        for name in cls._fields:
            value = state[name]
            if (
                (exclude and name in exclude)
                or (value is None and exclude_none)
                or (exclude_defaults and value == cls._defaults[name])
                or (exclude_unset and name not in state["_set"])
            ):
                continue
            out[cls._wire[name] if by_alias else name] = _dump(value, *flags)
        for key, value in state["_extra"].items():
            if not (value is None and exclude_none):
                out[key] = _dump(value, *flags)
        return out

    @property
    def model_fields_set(self) -> set[str]:
        """The fields given when the instance was made (not defaulted)."""
        return set(self.__dict__["_set"])

    def model_dump_json(self, *, indent: int | None = None, **options: Any) -> str:
        """The fields as JSON text (compact unless `indent` is given)."""
        separators = None if indent is not None else (",", ":")
        return json.dumps(
            self.model_dump(mode="json", **options), indent=indent, separators=separators, ensure_ascii=False
        )

    def model_copy(self: _M, *, update: dict[str, Any] | None = None, deep: bool = False) -> _M:
        """A copy, with `update` applied (field names or wire names)."""
        clone = copy.deepcopy(self) if deep else copy.copy(self)
        state = dict(clone.__dict__)
        state["_extra"] = dict(state["_extra"])
        object.__setattr__(clone, "__dict__", state)
        for key, value in (update or {}).items():
            setattr(clone, key, value)
        return clone

    # -- plain-object behaviour -----------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        fields = type(self)._lookup
        field = fields.get(name)
        state = self.__dict__
        if field is not None and field != name and field in state:
            return state[field]
        extra = state.get("_extra")
        if extra and name in extra:
            return extra[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        field = type(self)._lookup.get(name)
        if field is None and not name.startswith("_"):
            self.__dict__["_extra"][name] = value
        else:
            self.__dict__[field or name] = value
            if field is not None:
                self.__dict__["_set"] = self.__dict__["_set"] | {field}

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        absent = type(self)._absent_means
        return mine["_extra"] == theirs["_extra"] and all(
            mine[name] == theirs[name] or (name in absent and _absent_equal(mine[name], theirs[name], absent[name]))
            for name in type(self)._fields
        )

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        for name in type(self)._fields:
            yield name, self.__dict__[name]

    def __repr__(self) -> str:
        parts = [f"{name}={value!r}" for name, value in self if value is not None]
        parts += [f"{key}={value!r}" for key, value in self.__dict__["_extra"].items()]
        return f"{type(self).__name__}({', '.join(parts)})"


def _dump(
    value: Any, by_alias: bool, exclude_none: bool, exclude_defaults: bool, exclude_unset: bool, json: bool
) -> Any:
    flags = (by_alias, exclude_none, exclude_defaults, exclude_unset, json)
    if isinstance(value, WireModel):
        return value.model_dump(
            mode="json" if json else "python",
            by_alias=by_alias,
            exclude_none=exclude_none,
            exclude_defaults=exclude_defaults,
            exclude_unset=exclude_unset,
        )
    if isinstance(value, list):
        return [_dump(item, *flags) for item in value]
    if isinstance(value, dict):
        return {key: _dump(item, *flags) for key, item in value.items()}
    if json and type(value).__module__ in _URL_MODULES:
        # pydantic's URL types (`FileUrl`, `AnyUrl`, ...), which the official types take in
        # `uri` fields: in JSON mode (as pydantic's), the URL text.
        return str(value)
    if json and type(value).__module__ == "datetime" and hasattr(value, "isoformat"):
        # A `datetime` (1.x's `Task.createdAt` is one): ISO 8601 text, UTC as `Z`, as
        # pydantic's JSON mode writes it.
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    return value


_URL_MODULES = frozenset({"pydantic.networks", "pydantic_core._pydantic_core"})


def coerce(value: Any, hint: Any) -> Any:
    """Converts a wire value to what `hint` declares: dicts become models, recursively
    through lists, dicts and unions. Anything else is left as it is."""
    if value is None:
        return None
    origin = get_origin(hint)
    if origin is None:
        if isinstance(hint, type) and issubclass(hint, WireModel):
            return _as_model(hint, value)
        return value
    if origin is Union or origin is types.UnionType:
        return _coerce_union(value, [arm for arm in get_args(hint) if arm is not type(None)])
    if origin is list and isinstance(value, (list, tuple)):
        (item,) = get_args(hint) or (Any,)
        return [coerce(element, item) for element in value]
    if origin is dict and isinstance(value, dict):
        args = get_args(hint)
        item = args[1] if len(args) == 2 else Any
        return {key: coerce(element, item) for key, element in value.items()}
    return value


def _as_model(model: type[WireModel], value: Any) -> Any:
    if isinstance(value, model):
        return value
    if isinstance(value, dict) or callable(getattr(value, "model_dump", None)):
        return model.model_validate(value)
    return value


def _coerce_union(value: Any, arms: list[Any]) -> Any:
    if len(arms) == 1:
        return coerce(value, arms[0])
    if isinstance(value, WireModel):
        return value
    if isinstance(value, (list, tuple)):
        for arm in arms:
            if get_origin(arm) is list:
                return coerce(value, arm)
        return value
    if isinstance(value, dict) or callable(getattr(value, "model_dump", None)):
        data = value if isinstance(value, dict) else value.model_dump(by_alias=True, exclude_none=True)
        for arm in arms:
            if isinstance(arm, type) and issubclass(arm, WireModel) and _fits(arm, data):
                return arm.model_validate(data)
    return value


def _fits(model: type[WireModel], data: dict[str, Any]) -> bool:
    """Whether `data` can be a `model`: its Literal fields (`type`, `mode`, ...) agree
    and its required fields are present."""
    hints = model._resolved_hints()
    for name in model._fields:
        present = name in data or model._wire[name] in data
        if get_origin(hints[name]) is Literal:
            given = data.get(model._wire[name], data.get(name, model._defaults[name]))
            if given not in get_args(hints[name]):
                return False
        elif not present and model._defaults[name] is _MISSING:
            return False
    return True


class UnionAdapter:
    """What the official SDK's `TypeAdapter`s over its message unions offer user code
    (`validate_python`, `validate_json`, `dump_python`, `dump_json`), over WireModel
    classes.

    A dict is read as the arm its `method` names when the arms have `method` literals
    (requests, notifications), the way the official unions discriminate; otherwise (results,
    JSON-RPC envelopes) as the best-fitting arm: its `Literal` fields agree, its required
    fields are present, and it knows the most of the dict's keys (a tag such as
    `resultType: "input_required"` counts most); ties go to the earlier arm. A dict that
    fits no arm raises `ValueError` naming the union. Fitting looks one level into the
    values: a list of tool uses is no `CreateMessageResult` (whose content is one block) but
    a `CreateMessageResultWithTools`.
    """

    def __init__(self, name: str, arms: tuple[type[WireModel], ...]) -> None:
        self.name = name
        self.arms = arms
        by_method: dict[str, type[WireModel]] = {}
        for arm in arms:
            method = arm._defaults.get("method", _MISSING)
            if isinstance(method, str):
                by_method[method] = arm
        self._by_method = by_method if len(by_method) == len(arms) else None

    def __repr__(self) -> str:
        return f"UnionAdapter({self.name})"

    def validate_python(self, obj: Any, **_options: Any) -> Any:
        if isinstance(obj, self.arms):
            return obj
        data = obj
        if not isinstance(data, dict):
            dump = getattr(obj, "model_dump", None)
            if not callable(dump):
                raise ValueError(f"{self.name}: expected a dict, not {type(obj).__name__}")
            data = dump(by_alias=True, exclude_none=True)
        return self._pick(data).model_validate(data)

    def validate_json(self, data: str | bytes, **options: Any) -> Any:
        return self.validate_python(json.loads(data), **options)

    def dump_python(self, value: Any, **options: Any) -> Any:
        return _dump_value(value, options)

    def dump_json(self, value: Any, *, indent: int | None = None, **options: Any) -> bytes:
        separators = None if indent is not None else (",", ":")
        dumped = _dump_value(value, {**options, "mode": "json"})
        return json.dumps(dumped, indent=indent, separators=separators, ensure_ascii=False).encode()

    def _pick(self, data: dict[str, Any]) -> type[WireModel]:
        if self._by_method is not None:
            method = data.get("method")
            arm = self._by_method.get(method) if isinstance(method, str) else None
            if arm is None:
                raise ValueError(f"{self.name}: no member has the method {method!r}")
            return arm
        best: type[WireModel] | None = None
        best_score = -1
        for arm in self.arms:
            if not (_fits(arm, data) and _fields_fit(arm, data)):
                continue
            score = _score(arm, data)
            if score > best_score:
                best, best_score = arm, score
        if best is None:
            raise ValueError(f"{self.name}: the value fits no member: {sorted(data)}")
        return best


def _fields_fit(model: type[WireModel], data: dict[str, Any]) -> bool:
    """Whether the values `data` gives for the model's fields have the shapes the fields
    declare (a list where a list is declared, a dict that fits where a model is)."""
    hints = model._resolved_hints()
    for name in model._fields:
        wire = model._wire[name]
        if wire in data or name in data:
            value = data[wire] if wire in data else data[name]
            if not _shape_fits(value, hints[name]):
                return False
    return True


def _shape_fits(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return any(_shape_fits(value, arm) for arm in get_args(hint))
    if origin is list:
        (item,) = get_args(hint) or (Any,)
        return isinstance(value, list) and all(_shape_fits(element, item) for element in value)
    if origin is dict:
        return isinstance(value, dict)
    if origin is Literal:
        return value in get_args(hint)
    if isinstance(hint, type) and issubclass(hint, WireModel):
        return isinstance(value, hint) or (isinstance(value, dict) and _fits(hint, value))
    return True


def _score(model: type[WireModel], data: dict[str, Any]) -> int:
    hints = model._resolved_hints()
    score = 0
    for name in model._fields:
        wire = model._wire[name]
        if wire in data or name in data:
            score += 100 if get_origin(hints[name]) is Literal else 1
    return score


def _dump_value(value: Any, options: dict[str, Any]) -> Any:
    if isinstance(value, WireModel):
        return value.model_dump(**options)
    if isinstance(value, list):
        return [_dump_value(item, options) for item in value]
    if isinstance(value, dict):
        return {key: _dump_value(item, options) for key, item in value.items()}
    return value


def _absent_equal(mine: Any, theirs: Any, meant: Any) -> bool:
    """Whether two values of a field differ only in one being unset and the other the value
    the protocol gives an unset one (see `WireModel._absent_means`)."""
    return (mine is None and theirs == meant) or (theirs is None and mine == meant)


class _Factory:
    """A default made per instance (pydantic's `Field(default_factory=...)`)."""

    def __init__(self, make: Any) -> None:
        self.make = make

    def __repr__(self) -> str:
        return f"<default from {getattr(self.make, '__name__', self.make)!r}>"


def _is_pydantic_field(value: Any) -> bool:
    """Whether a class default is pydantic's `Field(...)` (without importing pydantic)."""
    return type(value).__name__ == "FieldInfo" and type(value).__module__.startswith("pydantic")


def _field_default(field: Any, owner: str, name: str) -> Any:
    """The default of a field declared with pydantic's `Field(...)`: its `default`, its
    `default_factory`, or none (required). An alias is refused: a field's wire name here
    is always its camelCase form."""
    aliases = {field.alias, field.validation_alias, field.serialization_alias} - {None, wire_name(name)}
    if aliases:
        raise TypeError(
            f"{owner}.{name}: Field(alias=...) is not supported by ferrymcp's wire types "
            f"(the field's wire name is {wire_name(name)!r})"
        )
    if field.default_factory is not None:
        return _Factory(field.default_factory)
    return _MISSING if field.is_required() else field.default
