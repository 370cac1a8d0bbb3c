"""Builds a tool's `inputSchema` and `outputSchema` from its function, as the official SDK.

The official SDK hands the signature to pydantic; clients, tests and caches see the
exact JSON Schema shapes pydantic writes (titles, `$defs`, `anyOf` for unions,
`prefixItems` for tuples, the `{"result": ...}` wrapper for non-object returns). This
module writes the same shapes without pydantic for the types a signature usually holds:
scalars, `None`, unions and `Optional`, lists, sets, tuples, dicts, `Literal`, enums,
TypedDicts, dataclasses, dates, UUIDs, paths and decimals. When the user's own types
involve pydantic (a model, or `Field(...)` metadata), the whole signature goes to
pydantic instead (`_schema_pydantic`), which then is already imported.

A parameter type with no JSON Schema raises `ValueError` naming the function and the
parameter. The output schema follows the official rules, including their corners: a
bare `dict`, an enum or a class without annotations give no output schema, and a
dataclass return becomes a model of its annotated fields.
"""

from __future__ import annotations

import collections
import collections.abc as abc
import copy
import dataclasses
import enum
import inspect
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from ferrymcp import _typing as t
from ferrymcp._jsonable import NotJsonable, jsonable
from ferrymcp._signature import EMPTY, Parameter, Signature

_FORMATS: list[tuple[str, str, dict[str, Any]]] = [
    ("datetime", "datetime", {"type": "string", "format": "date-time"}),
    ("datetime", "date", {"type": "string", "format": "date"}),
    ("datetime", "time", {"type": "string", "format": "time"}),
    ("datetime", "timedelta", {"type": "string", "format": "duration"}),
    ("uuid", "UUID", {"type": "string", "format": "uuid"}),
    ("pathlib", "PurePath", {"type": "string", "format": "path"}),
    ("decimal", "Decimal", {"anyOf": [{"type": "number"}, {"type": "string"}]}),
    ("builtins", "bytes", {"type": "string", "format": "binary"}),
    ("builtins", "bytearray", {"type": "string", "format": "binary"}),
]
_SCALARS: dict[Any, dict[str, Any]] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    t.NoneType: {"type": "null"},
    None: {"type": "null"},
}
_WRAPPED_PRIMITIVES = (str, int, float, bool, bytes, t.NoneType)


class NoSchema(ValueError):
    """A type that has no JSON Schema."""


# ---------------------------------------------------------------------------------------
# Entry points


def input_schema(signature: Signature) -> dict[str, Any]:
    """The `inputSchema` of a function: an object of its parameters."""
    builder = SchemaBuilder()
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in signature.parameters:
        try:
            properties[param.name] = builder.parameter(param)
        except NoSchema as exc:
            raise ValueError(
                f"function {signature.name!r}: parameter {param.name!r} has no JSON Schema ({exc}); "
                "use a JSON-compatible type (str, int, float, bool, list, dict, a TypedDict, a dataclass, ...)"
            ) from None
        if param.required:
            required.append(param.name)
    schema: dict[str, Any] = {"properties": properties}
    if required:
        schema["required"] = required
    schema["title"] = f"{signature.name}Arguments"
    schema["type"] = "object"
    return builder.finish(schema)


@dataclass(frozen=True)
class Input:
    """A function's `inputSchema`, and how its arguments are validated."""

    schema: dict[str, Any]
    validate: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """pydantic's validation into keyword arguments, when pydantic read the signature;
    `None` when the plain binder (`_args`) converts them."""


@dataclass(frozen=True)
class Output:
    """What a tool's return annotation says about structured output."""

    schema: dict[str, Any]
    annotation: Any
    wrap: bool
    """Whether the value travels as `{"result": value}`."""
    validate: Callable[[Any], Any] | None = None
    """pydantic's validation of a return value into structured content, when pydantic
    read the annotation; `None` when `_convert` shapes it."""


def needs_pydantic(signature: Signature) -> bool:
    """Whether the parameters involve pydantic (models, `Field(...)`, constraints)."""
    return any(
        t.involves_pydantic(param.annotation) or t.is_pydantic_field(param.default) for param in signature.parameters
    )


def tool_input(signature: Signature) -> Input:
    """The input side of a tool: pydantic's reading when the signature involves
    pydantic, this module's otherwise."""
    if needs_pydantic(signature):
        from ferrymcp import _schema_pydantic

        return _schema_pydantic.tool_input(signature)
    return Input(input_schema(signature))


def output(
    signature: Signature, structured_output: bool | None, content_types: tuple[type, ...], v1: bool = False
) -> Output | None:
    """The structured output of a function, or `None` when it has none.

    `structured_output=None` decides from the annotation; `True` insists (and raises if
    the annotation cannot give a schema); `False` never gives one. `content_types` are
    the classes that make a return value content rather than data. `v1`: the schema as
    `mcp` 1.x's `FastMCP` derives it where 2.x's differs."""
    if structured_output is False:
        return None
    annotation = signature.return_annotation
    if annotation is EMPTY and structured_output is True:
        raise ValueError(f"function {signature.name!r}: a return annotation is required for structured output")
    return_type, metadata = _strip_return(annotation)
    if (
        t.is_union(return_type)
        and len(get_args(return_type)) > 1
        and any(_is_call_tool_result(arm) for arm in get_args(return_type))
    ):
        raise ValueError(
            f"function {signature.name!r}: CallToolResult cannot be used in a Union or Optional; "
            "to return an empty result, return CallToolResult(content=[])"
        )
    if _is_call_tool_result(return_type):
        if not metadata:
            return None
        return_type = annotation = metadata[0]
    if structured_output is None and _returns_content(return_type, content_types):
        return None
    if t.involves_pydantic(annotation):
        from ferrymcp import _schema_pydantic

        return _schema_pydantic.output(signature.name, annotation, return_type, structured_output)
    try:
        found = _output_model(signature.name, annotation, return_type, v1)
    except NoSchema as exc:
        found = None
        problem = str(exc)
    else:
        problem = "it has no JSON Schema"
    if found is None and structured_output is True:
        raise not_structured(signature.name, return_type, problem)
    return found


def not_structured(name: str, return_type: Any, problem: str | None = None) -> Exception:
    """The official `InvalidSignature` for `structured_output=True` on a return type
    without a JSON Schema (with the reason, when there is one)."""
    from ferrymcp.server.mcpserver.exceptions import InvalidSignature

    reason = f": {problem}" if problem else ""
    return InvalidSignature(
        f"Function {name}: return type {return_type!r} is not serializable for structured output{reason}"
    )


# ---------------------------------------------------------------------------------------
# Output rules (the official `_create_output_model`)


def _strip_return(annotation: Any) -> tuple[Any, tuple[Any, ...]]:
    if get_origin(annotation) is typing.Annotated:
        return annotation.__origin__, annotation.__metadata__
    return annotation, ()


def _is_call_tool_result(tp: Any) -> bool:
    from ferrymcp.types import CallToolResult

    return isinstance(tp, type) and (issubclass(tp, CallToolResult) or tp.__name__ == "CallToolResult")


def _returns_content(tp: Any, content_types: tuple[type, ...]) -> bool:
    origin = get_origin(tp)
    if origin is None:
        return isinstance(tp, type) and issubclass(tp, content_types)
    if origin is typing.Annotated:
        return _returns_content(get_args(tp)[0], content_types)
    if t.is_union(tp) or origin in (list, tuple, abc.Sequence):
        return any(_returns_content(arg, content_types) for arg in get_args(tp))
    return False


def _output_model(name: str, annotation: Any, return_type: Any, v1: bool = False) -> Output | None:
    if return_type is None or return_type is t.NoneType:
        return _wrapped(name, annotation)
    if isinstance(return_type, types.GenericAlias):
        args = get_args(return_type)
        if get_origin(return_type) is dict and len(args) == 2 and args[0] is str:
            builder = SchemaBuilder()
            schema = {**builder.schema(return_type), "title": f"{name}DictOutput"}
            return Output(builder.finish(schema), return_type, wrap=False)
        return _wrapped(name, annotation)
    if isinstance(return_type, type):
        if t.is_typeddict(return_type):
            schema = _root_class_schema(return_type)
            if v1:
                # 1.x builds a model of the TypedDict's fields, which has no docstring.
                schema.pop("description", None)
            return Output(schema, return_type, wrap=False)
        if return_type in _WRAPPED_PRIMITIVES:
            return _wrapped(name, annotation)
        hints = typing.get_type_hints(return_type)
        if not hints:
            return None
        return Output(_class_model_schema(return_type, hints), return_type, wrap=False)
    return _wrapped(name, annotation)


def _wrapped(name: str, annotation: Any) -> Output:
    builder = SchemaBuilder()
    result = builder.field(annotation, EMPTY, "Result")
    schema = {"properties": {"result": result}, "required": ["result"], "title": f"{name}Output", "type": "object"}
    return Output(builder.finish(schema), annotation, wrap=True)


def _root_class_schema(cls: type) -> dict[str, Any]:
    """A class that is its own `$defs` entry (a TypedDict) as the root of a schema."""
    builder = SchemaBuilder()
    ref = builder.schema(cls)["$ref"]
    key = ref.removeprefix("#/$defs/")
    root = dict(builder.defs[key])
    still_used = ref in json.dumps([root, {k: v for k, v in builder.defs.items() if k != key}])
    if not still_used:
        del builder.defs[key]
    return builder.finish(root)


def _class_model_schema(cls: type, hints: dict[str, Any]) -> dict[str, Any]:
    """The model the official SDK makes of an annotated class: its annotated fields,
    with class attributes as defaults (so a dataclass `default_factory` is required)."""
    builder = SchemaBuilder()
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field_name, hint in hints.items():
        if field_name.startswith("_"):
            continue
        default = getattr(cls, field_name, EMPTY)
        properties[field_name] = builder.field(hint, default, _title(field_name))
        if default is EMPTY:
            required.append(field_name)
    schema: dict[str, Any] = {"properties": properties}
    if required:
        schema["required"] = required
    schema.update(title=cls.__name__, type="object")
    return builder.finish(schema)


# ---------------------------------------------------------------------------------------
# The schema of one type


def _pydantic_order(value: Any, parent_key: str | None = None) -> Any:
    """`value` with its keys in pydantic's order (`GenerateJsonSchema.sort`), which the
    official SDK's schemas have: sorted at every level, except the members of a
    `properties` (the fields, in declaration order) and of a `default` (as given).
    Key order reaches clients unchanged, so it is part of the shape."""
    if isinstance(value, dict):
        keys = value.keys() if parent_key in ("properties", "default") else sorted(value)
        return {key: _pydantic_order(value[key], key) for key in keys}
    if isinstance(value, list):
        return [_pydantic_order(item, parent_key) for item in value]
    return value


def _title(name: str) -> str:
    return name.title().replace("_", " ").strip()


class SchemaBuilder:
    """Writes JSON Schemas the way pydantic does, collecting classes under `$defs`."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}
        self._names: dict[type, str] = {}

    def finish(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.defs:
            schema = {"$defs": self.defs, **schema}
        ordered: dict[str, Any] = _pydantic_order(schema)
        return ordered

    def parameter(self, param: Parameter) -> dict[str, Any]:
        if param.annotation is EMPTY:
            schema: dict[str, Any] = {"title": param.name, "type": "string"}
            return self._with_default(schema, param.default)
        return self.field(param.annotation, param.default, _title(param.name))

    def field(self, tp: Any, default: Any, title: str) -> dict[str, Any]:
        """A property: the type's schema, its title (unless the type is a `$ref`
        class) and its default."""
        schema = self.schema(tp)
        if not _is_ref_kind(tp):
            schema["title"] = title
        return self._with_default(schema, default)

    def _with_default(self, schema: dict[str, Any], default: Any) -> dict[str, Any]:
        if default is EMPTY or isinstance(default, dataclasses.Field):
            return schema
        if isinstance(default, (set, frozenset)) and len(default) > 1:
            try:
                default = sorted(default)
            except TypeError:
                pass
        try:
            schema["default"] = jsonable(default)
        except NotJsonable:
            pass
        return schema

    def schema(self, tp: Any) -> dict[str, Any]:
        """A fresh JSON Schema dict for `tp`; raises `NoSchema`."""
        tp, _ = t.strip_annotated(tp)
        if tp is Any or tp is object or tp is EMPTY or isinstance(tp, typing.TypeVar):
            return {}
        if tp in _SCALARS:
            return dict(_SCALARS[tp])
        if isinstance(tp, str):
            raise NoSchema(f"the annotation {tp!r} is an unresolved string")
        alias_value = getattr(tp, "__value__", None)
        if alias_value is not None and type(tp).__name__ == "TypeAliasType":
            return self.schema(alias_value)
        origin = get_origin(tp)
        if origin is not None:
            return self._generic(tp, origin)
        if isinstance(tp, type):
            return self._class(tp)
        raise NoSchema(f"{tp!r} is not a type")

    def _class(self, tp: type) -> dict[str, Any]:
        for module, name, schema in _FORMATS:
            cls = t.loaded_class(module, name)
            if cls is not None and issubclass(tp, cls):
                return copy.deepcopy(schema)
        if t.is_enum_type(tp) or t.is_typeddict(tp) or t.is_dataclass_type(tp):
            return {"$ref": f"#/$defs/{self._define(tp)}"}
        if tp in (list, tuple, collections.deque):
            return {"items": {}, "type": "array"}
        if tp in (set, frozenset):
            return {"items": {}, "type": "array", "uniqueItems": True}
        if tp is dict:
            return {"additionalProperties": True, "type": "object"}
        if t.is_pydantic_model(tp):
            raise NoSchema("pydantic models are read by pydantic")
        raise NoSchema(f"{tp.__name__} is not a JSON type")

    def _generic(self, tp: Any, origin: Any) -> dict[str, Any]:
        args = get_args(tp)
        if origin is Literal:
            return _literal(args)
        if t.is_union(tp):
            return self._union(args)
        if origin is type:
            return {}
        if origin in t.SEQUENCE_ORIGINS:
            return {"items": self.schema(args[0]) if args else {}, "type": "array"}
        if origin in t.SET_ORIGINS:
            return {"items": self.schema(args[0]) if args else {}, "type": "array", "uniqueItems": True}
        if origin is tuple:
            return self._tuple(tp, args)
        if origin in t.MAPPING_ORIGINS:
            return self._mapping(args)
        if origin in (typing.ClassVar,):
            return self.schema(args[0])
        raise NoSchema(f"{tp!r} is not a JSON type")

    def _union(self, args: tuple[Any, ...]) -> dict[str, Any]:
        nullable = any(arm is t.NoneType or arm is None for arm in args)
        members: list[dict[str, Any]] = []
        for arm in args:
            if arm is t.NoneType or arm is None:
                continue
            members.append(self.schema(arm))
        if nullable:
            inner = members[0] if len(members) == 1 else _flattened_any_of(members)
            return _flattened_any_of([inner, {"type": "null"}])
        return _flattened_any_of(members)

    def _tuple(self, tp: Any, args: tuple[Any, ...]) -> dict[str, Any]:
        if tp is tuple:
            return {"items": {}, "type": "array"}
        if not args or args == ((),):
            return {"maxItems": 0, "minItems": 0, "type": "array"}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"items": self.schema(args[0]), "type": "array"}
        return {
            "maxItems": len(args),
            "minItems": len(args),
            "prefixItems": [self.schema(arg) for arg in args],
            "type": "array",
        }

    def _mapping(self, args: tuple[Any, ...]) -> dict[str, Any]:
        key_schema = self.schema(args[0]) if args else {}
        value_schema = self.schema(args[1]) if len(args) == 2 else {}
        pattern = None
        if "$ref" not in key_schema:
            pattern = key_schema.pop("pattern", None)
            key_schema.pop("title", None)
        value_schema.pop("title", None)
        schema: dict[str, Any] = {"type": "object"}
        if value_schema or pattern is not None:
            if pattern is None:
                schema["additionalProperties"] = value_schema
            else:
                schema["patternProperties"] = {pattern: value_schema}
        else:
            schema["additionalProperties"] = True
        if (key_schema.get("type") == "string" and len(key_schema) > 1) or "$ref" in key_schema:
            key_schema.pop("type", None)
            schema["propertyNames"] = key_schema
        return schema

    # -- classes under $defs --------------------------------------------------------

    def _define(self, cls: type) -> str:
        name = self._names.get(cls)
        if name is not None:
            return name
        name = cls.__name__
        if name in self.defs:
            name = f"{cls.__module__}__{cls.__qualname__}".replace(".", "__")
        self._names[cls] = name
        self.defs[name] = {}
        if t.is_enum_type(cls):
            definition = _enum(cls)
        elif t.is_typeddict(cls):
            definition = self._typeddict(cls)
        else:
            definition = self._dataclass(cls)
        self.defs[name] = definition
        return name

    def _typeddict(self, cls: type) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for key, (hint, is_required) in t.typeddict_keys(cls).items():
            properties[key] = self.field(hint, EMPTY, _title(key))
            if is_required:
                required.append(key)
        return self._object(cls, properties, required, cls.__doc__)

    def _dataclass(self, cls: type) -> dict[str, Any]:
        hints = t.class_hints(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            default = f.default if f.default is not dataclasses.MISSING else EMPTY
            properties[f.name] = self.field(hints.get(f.name, Any), default, _title(f.name))
            if default is EMPTY and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
        doc = cls.__doc__
        if doc is not None and doc.startswith(f"{cls.__name__}("):
            doc = None
        return self._object(cls, properties, required, doc)

    @staticmethod
    def _object(cls: type, properties: dict[str, Any], required: list[str], doc: str | None) -> dict[str, Any]:
        schema: dict[str, Any] = {"properties": properties}
        if required:
            schema["required"] = required
        schema["title"] = cls.__name__
        schema["type"] = "object"
        if doc:
            schema["description"] = inspect.cleandoc(doc)
        return schema


def _is_ref_kind(tp: Any) -> bool:
    """Whether pydantic writes `tp` as a `$ref` (so the property gets no title)."""
    tp, _ = t.strip_annotated(tp)
    inner = t.optional_arm(tp)
    if inner is not None:
        return _is_ref_kind(inner)
    return t.is_enum_type(tp) or t.is_typeddict(tp) or t.is_dataclass_type(tp)


def _literal(values: tuple[Any, ...]) -> dict[str, Any]:
    expected = [jsonable(v.value if isinstance(v, enum.Enum) else v) for v in values]
    schema: dict[str, Any] = {"const": expected[0]} if len(expected) == 1 else {"enum": expected}
    kinds = {type(value) for value in expected}
    kind = {
        frozenset({str}): "string",
        frozenset({int}): "integer",
        frozenset({float}): "number",
        frozenset({bool}): "boolean",
        frozenset({list}): "array",
        frozenset({t.NoneType}): "null",
    }.get(frozenset(kinds))
    if kind is not None:
        schema["type"] = kind
    return schema


def _enum(cls: type[enum.Enum]) -> dict[str, Any]:
    doc = cls.__doc__
    schema: dict[str, Any] = {"title": cls.__name__}
    if doc and inspect.cleandoc(doc) != "An enumeration.":
        schema["description"] = inspect.cleandoc(doc)
    expected = [jsonable(member.value) for member in cls]
    schema["enum"] = expected
    kinds = {type(value) for value in expected}
    if kinds == {str}:
        schema["type"] = "string"
    elif kinds == {int}:
        schema["type"] = "integer"
    elif kinds == {float}:
        schema["type"] = "number"
    elif kinds == {bool}:
        schema["type"] = "boolean"
    elif kinds == {list}:
        schema["type"] = "array"
    return schema


def _flattened_any_of(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    members: list[dict[str, Any]] = []
    for schema in schemas:
        if len(schema) == 1 and "anyOf" in schema:
            members.extend(schema["anyOf"])
        else:
            members.append(schema)
    unique: list[dict[str, Any]] = []
    for member in members:
        if member not in unique:
            unique.append(member)
    if len(unique) == 1:
        return unique[0]
    return {"anyOf": unique}
