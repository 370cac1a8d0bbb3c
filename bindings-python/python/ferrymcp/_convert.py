"""Turns what a handler returns into the result dict the engine sends, as the official SDK.

Tools: a string is one text block; `None` is no content; an `Image`, `Audio` or content
block is that block; a list or tuple is the blocks of its items, in order; anything else
(numbers, dicts, dataclasses, models) is its JSON text, indented. A `CallToolResult` is
sent as it is. When the return annotation gives structured output, the value also goes
into `structuredContent` (as `{"result": value}` for non-object types).

Resources: a string is text, bytes are a base64 blob, anything else is JSON text; the
MIME type defaults to `text/plain` as in the official SDK. Prompts: a string, a content
block, an `Image`/`Audio` or a message dict is a message (strings and blocks from the
user), and a list gives several. Completions: a `Completion`, a list of strings or
`None`.

Values that are ferrymcp wire types, or the official SDK's pydantic types, are accepted
alike: both dump to the same wire dicts.
"""

from __future__ import annotations

import base64
import typing
from typing import Any, get_args, get_origin

from ferrymcp import _typing as t
from ferrymcp._jsonable import jsonable, to_json_text
from ferrymcp._media import Audio, Image
from ferrymcp._schema import Output

_CONTENT_NAMES = {"TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"}
_RESOURCE_CONTENTS_NAMES = {"TextResourceContents", "BlobResourceContents"}


def _is_model(value: Any, names: set[str] | str) -> bool:
    """Whether `value` is a wire model of one of `names`: ferrymcp's own or the
    official SDK's (any object with `model_dump` and that class name)."""
    names = {names} if isinstance(names, str) else names
    return type(value).__name__ in names and callable(getattr(value, "model_dump", None))


def _wire(value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = value.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


# ---------------------------------------------------------------------------------------
# Tools


def tool_result(value: Any, output: Output | None) -> dict[str, Any]:
    """The `CallToolResult` dict for a tool's return value."""
    # A handler's own `InputRequiredResult` (2026-07-28) goes to the engine as it is.
    if _is_model(value, {"CallToolResult", "InputRequiredResult"}):
        return _wire(value)
    result: dict[str, Any] = {"content": content_blocks(value)}
    if output is not None:
        result["structuredContent"] = structured(value, output)
    return result


def content_blocks(value: Any) -> list[dict[str, Any]]:
    """The content blocks of a tool's return value."""
    if value is None:
        return []
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if _is_model(value, _CONTENT_NAMES):
        return [_wire(value)]
    if isinstance(value, Image):
        return [_wire(value.to_image_content())]
    if isinstance(value, Audio):
        return [_wire(value.to_audio_content())]
    if isinstance(value, (list, tuple)):
        return [block for item in value for block in content_blocks(item)]
    return [{"type": "text", "text": to_json_text(value)}]


def structured(value: Any, output: Output) -> Any:
    """The `structuredContent` of a return value under its annotation."""
    if output.validate is not None:
        return output.validate(value)
    kind = type(value)
    if kind is str or kind is bool or value is None or (kind is int and output.annotation is not float):
        shaped = value
    else:
        shaped = _shape(value, output.annotation)
    return {"result": shaped} if output.wrap else shaped


def _shape(value: Any, annotation: Any) -> Any:
    """`value` as JSON, keeping what the annotation declares: the fields of a
    TypedDict or class, floats for `float`."""
    annotation, _ = t.strip_annotated(annotation)
    if value is None:
        return None
    inner = t.optional_arm(annotation)
    if inner is not None:
        return _shape(value, inner)
    if annotation is float and type(value) is int:
        return float(value)
    origin = get_origin(annotation)
    if origin in t.SEQUENCE_ORIGINS and isinstance(value, (list, tuple)) and get_args(annotation):
        (item,) = get_args(annotation)[:1]
        return [_shape(element, item) for element in value]
    if isinstance(annotation, type) and not isinstance(value, (str, bytes, int, float, bool)):
        if t.is_typeddict(annotation) and isinstance(value, dict):
            keys = t.typeddict_keys(annotation)
            return {k: _shape(v, keys[k][0]) for k, v in value.items() if k in keys}
        if not t.is_enum_type(annotation) and annotation not in (dict, list, tuple, set):
            hints = _class_fields(annotation)
            if hints:
                return {name: _shape(_read(value, name), hint) for name, hint in hints.items() if _has(value, name)}
    return jsonable(value)


def _class_fields(cls: type) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return {}
    return {name: hint for name, hint in hints.items() if not name.startswith("_")}


def _has(value: Any, name: str) -> bool:
    return name in value if isinstance(value, dict) else hasattr(value, name)


def _read(value: Any, name: str) -> Any:
    return value[name] if isinstance(value, dict) else getattr(value, name)


# ---------------------------------------------------------------------------------------
# Resources


def resource_result(value: Any, uri: str, mime_type: str | None, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `ReadResourceResult` dict for a resource function's return value; text or
    bytes become one content item carrying the resource's `_meta`, as the official SDK's."""
    if _is_model(value, {"ReadResourceResult", "InputRequiredResult"}):
        return _wire(value)
    if _is_model(value, _RESOURCE_CONTENTS_NAMES):
        return {"contents": [_wire(value)]}
    if isinstance(value, (list, tuple)) and value and all(_is_model(item, _RESOURCE_CONTENTS_NAMES) for item in value):
        return {"contents": [_wire(item) for item in value]}
    mime = mime_type or "text/plain"
    extra = {"_meta": meta} if meta is not None else {}
    if isinstance(value, (bytes, bytearray)):
        return {"contents": [{"uri": uri, "mimeType": mime, "blob": base64.b64encode(value).decode(), **extra}]}
    text = value if isinstance(value, str) else to_json_text(value)
    return {"contents": [{"uri": uri, "mimeType": mime, "text": text, **extra}]}


# ---------------------------------------------------------------------------------------
# Prompts


def prompt_result(value: Any, description: str | None) -> dict[str, Any]:
    """The `GetPromptResult` dict for a prompt function's return value."""
    if _is_model(value, {"GetPromptResult", "InputRequiredResult"}):
        return _wire(value)
    items = value if isinstance(value, (list, tuple)) else [value]
    result: dict[str, Any] = {"messages": [prompt_message(item) for item in items]}
    if description is not None:
        result = {"description": description, **result}
    return result


def prompt_message(item: Any) -> dict[str, Any]:
    """One `PromptMessage` dict: a message as it is, bare content from the user."""
    if _is_model(item, {"Message", "UserMessage", "AssistantMessage", "PromptMessage"}):
        return _wire(item)
    if isinstance(item, dict) and "content" in item:
        return {"role": item.get("role", "user"), "content": _message_content(item["content"])}
    return {"role": "user", "content": _message_content(item)}


def _message_content(content: Any) -> Any:
    if isinstance(content, str):
        return {"type": "text", "text": content}
    if isinstance(content, dict):
        return content
    blocks = content_blocks(content)
    if len(blocks) != 1:
        return {"type": "text", "text": to_json_text(content)}
    return blocks[0]


# ---------------------------------------------------------------------------------------
# Completions


def completion_result(value: Any) -> dict[str, Any]:
    """The `CompleteResult` dict for a completion handler's return value."""
    if _is_model(value, "CompleteResult"):
        return _wire(value)
    if value is None:
        return {"completion": {"values": []}}
    if _is_model(value, "Completion"):
        return {"completion": _wire(value)}
    if isinstance(value, dict):
        return {"completion": value}
    return {"completion": {"values": [str(item) for item in value]}}
