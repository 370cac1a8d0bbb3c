"""The schema and validation of signatures that involve pydantic, done by pydantic.

When a tool's parameters or return type use pydantic models or `Field(...)`, the user
has pydantic, and the exact shapes (and the validation and coercion that go with them)
are pydantic's own. This module builds them the way the official SDK does: an arguments
model named `<function>Arguments` for the input, and for the output the model, TypedDict
or `{"result": ...}` wrapper the official SDK chooses. It is imported only for such
signatures, so `import ferrymcp` never imports pydantic.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, WithJsonSchema, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaWarningKind

from ferrymcp import _typing as t
from ferrymcp._schema import Input, Output, not_structured
from ferrymcp._signature import EMPTY, Signature

_WRAPPED_PRIMITIVES = (str, int, float, bool, bytes, type(None))


class _ArgumentsBase(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)


class _StrictJsonSchema(GenerateJsonSchema):
    """Raises where pydantic would only warn, so an unserialisable type is noticed."""

    def emit_warning(self, kind: JsonSchemaWarningKind, detail: str) -> None:
        raise ValueError(f"JSON schema warning: {kind} - {detail}")


def tool_input(signature: Signature) -> Input:
    """The arguments model of a function, its JSON Schema and its validation."""
    try:
        model = arguments_model(signature)
        schema = model.model_json_schema(by_alias=True)
    except Exception as exc:
        raise ValueError(f"function {signature.name!r}: its parameters have no JSON Schema: {exc}") from exc
    return Input(schema, _validator(model))


def argument_wording(signature: Signature) -> Callable[[dict[str, Any]], str | None]:
    """pydantic's words for arguments the engine found invalid, as the official
    `MCPServer` reports them (`1 validation error for fnArguments ...`); `None` when
    pydantic accepts them (the engine's words stand then). The model is made on the first
    invalid call, so a server whose calls are valid never builds it."""
    model: type[BaseModel] | None = None

    def word(arguments: dict[str, Any]) -> str | None:
        nonlocal model
        try:
            if model is None:
                model = arguments_model(signature)
            model.model_validate(arguments)
        except ValidationError as error:
            return str(error)
        except Exception:
            return None
        return None

    return word


def arguments_model(signature: Signature) -> type[BaseModel]:
    """The pydantic model of a function's parameters (`{name}Arguments`, as the official SDK
    names it)."""
    fields: dict[str, Any] = {}
    for param in signature.parameters:
        annotation = Any if param.annotation is EMPTY else param.annotation
        metadata: list[Any] = []
        if param.annotation is EMPTY:
            metadata.append(WithJsonSchema({"title": param.name, "type": "string"}))
        options: dict[str, Any] = {}
        field_name = param.name
        if callable(getattr(BaseModel, field_name, None)):
            options["alias"] = field_name
            field_name = f"field_{field_name}"
        parts = (annotation, *metadata, Field(**options))
        hint = Annotated[parts]  # type: ignore[valid-type]
        fields[field_name] = hint if param.default is EMPTY else (hint, param.default)
    model: type[BaseModel] = create_model(f"{signature.name}Arguments", __base__=_ArgumentsBase, **fields)
    return model


def _validator(model: type[BaseModel]) -> Any:
    keys = {name: field.alias or name for name, field in model.model_fields.items()}

    def validate(arguments: dict[str, Any]) -> dict[str, Any]:
        parsed = model.model_validate(arguments)
        return {key: getattr(parsed, name) for name, key in keys.items()}

    return validate


def output(name: str, annotation: Any, return_type: Any, structured_output: bool | None) -> Output | None:
    """The official SDK's output model for a return type that involves pydantic."""
    model, wrap = _output_model(name, annotation, return_type)
    if model is not None:
        try:
            adapter = TypeAdapter(model)
            schema = _inline_root_ref(adapter.json_schema(schema_generator=_StrictJsonSchema))
        except Exception as exc:
            if structured_output is True:
                raise not_structured(name, return_type, str(exc)) from exc
            return None
        return Output(schema, annotation, wrap, _structurer(adapter, wrap))
    if structured_output is True:
        raise not_structured(name, return_type)
    return None


def _output_model(name: str, annotation: Any, return_type: Any) -> tuple[Any, bool]:
    if return_type is None:
        return create_model(f"{name}Output", result=annotation), True
    if isinstance(return_type, types.GenericAlias):
        args = get_args(return_type)
        if get_origin(return_type) is dict and len(args) == 2 and args[0] is str:
            return Annotated[return_type, Field(title=f"{name}DictOutput")], False
        return create_model(f"{name}Output", result=annotation), True
    if isinstance(return_type, type):
        if issubclass(return_type, BaseModel) or t.is_typeddict(return_type):
            return return_type, False
        if return_type in _WRAPPED_PRIMITIVES:
            return create_model(f"{name}Output", result=annotation), True
        hints = typing.get_type_hints(return_type)
        if not hints:
            return None, False
        fields: dict[str, Any] = {
            field: (hint, getattr(return_type, field)) if hasattr(return_type, field) else hint
            for field, hint in hints.items()
            if not field.startswith("_")
        }
        config = ConfigDict(from_attributes=True)
        return create_model(return_type.__name__, __config__=config, **fields), False
    return create_model(f"{name}Output", result=annotation), True


def _inline_root_ref(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return schema
    definition = schema["$defs"][ref.removeprefix("#/$defs/")]
    return {**definition, **{key: value for key, value in schema.items() if key != "$ref"}}


def _structurer(adapter: TypeAdapter[Any], wrap: bool) -> Any:
    def structure(value: Any) -> Any:
        if wrap:
            value = {"result": value}
        validated = adapter.validate_python(value, by_alias=True, by_name=True)
        if isinstance(validated, BaseModel):
            return validated.model_dump(mode="json", by_alias=True)
        return adapter.dump_python(validated, mode="json", by_alias=True)

    return structure
