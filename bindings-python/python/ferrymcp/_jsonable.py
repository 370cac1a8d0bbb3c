"""Turns Python values into JSON values, the way the official SDK serialises them.

Used for schema defaults and for tool, resource and prompt return values. It follows
`pydantic_core.to_jsonable_python` for the types a tool author returns (dataclasses,
enums, tuples and sets, dates and times, UUIDs, paths, decimals, bytes, pydantic models
and ferrymcp's own wire types) without importing pydantic. Infinities and NaN become
`null`, as in the official JSON output.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ferrymcp._typing import loaded_class
from ferrymcp._wire import WireModel

if TYPE_CHECKING:
    import datetime

_SCALARS = (str, int, bool, type(None))


class NotJsonable(TypeError):
    """A value that has no JSON form."""


def jsonable(value: Any, fallback: Callable[[Any], Any] | None = None) -> Any:
    """`value` as plain JSON data (dict, list, str, int, float, bool, None).

    Raises `NotJsonable` for a value with no JSON form, unless `fallback` gives one.
    """
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, float):
        return None if math.isinf(value) or math.isnan(value) else value
    if isinstance(value, enum.Enum):
        return jsonable(value.value, fallback)
    if isinstance(value, Mapping):
        return {_key(k, fallback): jsonable(v, fallback) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(item, fallback) for item in value]
    if isinstance(value, WireModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name), fallback) for f in dataclasses.fields(value)}
    special = _special(value)
    if special is not None:
        return special
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return dump(mode="json", by_alias=True)
    if fallback is not None:
        return fallback(value)
    raise NotJsonable(f"{type(value).__name__} has no JSON form")


def to_json_text(value: Any) -> str:
    """`value` as indented JSON text, unknown objects as their `str` (the official
    SDK's text for a tool result that is not a string)."""
    return json.dumps(jsonable(value, fallback=str), indent=2, ensure_ascii=False)


def _key(key: Any, fallback: Callable[[Any], Any] | None) -> str:
    if isinstance(key, str):
        return key
    plain = jsonable(key, fallback)
    if isinstance(plain, list):
        return ",".join(str(part) for part in plain)
    if isinstance(plain, bool):
        return "true" if plain else "false"
    return str(plain)


def _special(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    if type(value).__module__ in ("pydantic.networks", "pydantic_core._pydantic_core"):
        return str(value)  # pydantic's URL types (`FileUrl`, `AnyUrl`): the URL text
    if type(value).__module__ == "datetime":
        text: str = value.isoformat() if hasattr(value, "isoformat") else _duration(value)
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    for module_name, name in (("uuid", "UUID"), ("pathlib", "PurePath"), ("decimal", "Decimal")):
        cls = loaded_class(module_name, name)
        if cls is not None and isinstance(value, cls):
            return str(value)
    return None


def _duration(delta: datetime.timedelta) -> str:
    """ISO 8601, as pydantic writes it: `PT1H1.5S`, `P1D`, `-P1D`."""
    sign = "-" if delta.total_seconds() < 0 else ""
    delta = abs(delta)
    hours, rest = divmod(delta.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    second_text = f"{seconds + delta.microseconds / 1_000_000:g}S" if seconds or delta.microseconds else ""
    clock = (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "") + second_text
    days = f"{delta.days}D" if delta.days else ""
    if not days and not clock:
        clock = "0S"
    return f"{sign}P{days}" + (f"T{clock}" if clock else "")
