"""Call arguments become what the function's annotations declare, as with the official
SDK's pydantic validation."""

import dataclasses
import datetime
import enum
import uuid
from pathlib import Path
from typing import Any, Literal

import pytest
from typing_extensions import TypedDict

from ferrymcp._args import Binder
from ferrymcp._signature import read_signature


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


@dataclasses.dataclass
class Point:
    x: int
    color: Color = Color.RED


@dataclasses.dataclass
class Tree:
    value: int
    children: list["Tree"] = dataclasses.field(default_factory=list)


class Movie(TypedDict):
    title: str
    tags: tuple[str, ...]


def bind(fn: Any, arguments: dict[str, Any], **options: Any) -> dict[str, Any]:
    return Binder(read_signature(fn), context_param=None, **options)(arguments, None)


def test_plain_json_types_pass_through_without_converters() -> None:
    def f(a: str, b: int, c: bool, d: dict, e: list[int], g: Any) -> None: ...

    binder = Binder(read_signature(f), context_param=None)
    assert all(convert is None for _, convert, _, _ in binder._params)
    args = {"a": "x", "b": 1, "c": True, "d": {"k": 1}, "e": [1], "g": None}
    assert binder(args, None) == args


def test_rich_types_are_built() -> None:
    def f(
        c: Color,
        lv: Level,
        p: Point,
        t: tuple[int, str],
        s: set[int],
        fl: float,
        m: Movie,
        when: datetime.datetime,
        u: uuid.UUID,
        path: Path,
    ) -> None: ...

    kwargs = bind(
        f,
        {
            "c": "red",
            "lv": 1,
            "p": {"x": 1, "color": "red"},
            "t": [1, "a"],
            "s": [1, 2, 2],
            "fl": 3,
            "m": {"title": "Up", "tags": ["a"], "extra": 1},
            "when": "2024-01-02T03:04:05Z",
            "u": "12345678-1234-5678-1234-567812345678",
            "path": "/tmp/x",
        },
    )
    assert kwargs["c"] is Color.RED and kwargs["lv"] is Level.LOW
    assert kwargs["p"] == Point(1, Color.RED)
    assert kwargs["t"] == (1, "a") and kwargs["s"] == {1, 2}
    assert kwargs["fl"] == 3.0 and isinstance(kwargs["fl"], float)
    assert kwargs["m"] == {"title": "Up", "tags": ("a",)}
    assert kwargs["when"] == datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    assert kwargs["u"] == uuid.UUID("12345678-1234-5678-1234-567812345678")
    assert kwargs["path"] == Path("/tmp/x")


def test_optional_unions_and_recursion() -> None:
    def f(a: Color | None, b: int | Color, c: list[Point], t: Tree, lit: Literal[Color.RED]) -> None: ...

    kwargs = bind(
        f, {"a": None, "b": "red", "c": [{"x": 2}], "t": {"value": 1, "children": [{"value": 2}]}, "lit": "red"}
    )
    assert kwargs["a"] is None and kwargs["b"] is Color.RED and kwargs["c"] == [Point(2)]
    assert kwargs["t"] == Tree(1, [Tree(2)])
    assert kwargs["lit"] is Color.RED
    assert bind(f, {"a": "red", "b": 5, "c": [], "t": {"value": 0}, "lit": "red"})["b"] == 5


def test_json_strings_for_structured_parameters_are_parsed_as_the_official_sdk_does() -> None:
    def f(items: list[int], text: str, n: int, flag: str | None = None) -> None: ...

    kwargs = bind(f, {"items": "[1, 2]", "text": "[1, 2]", "n": 5, "flag": "hello"})
    assert kwargs == {"items": [1, 2], "text": "[1, 2]", "n": 5, "flag": "hello"}


def test_missing_arguments_use_defaults_or_fail() -> None:
    def f(a: int, b: int = 2) -> None: ...

    assert bind(f, {"a": 1}) == {"a": 1}
    with pytest.raises(ValueError, match="missing required argument 'a'"):
        bind(f, {"b": 1})


def test_unknown_arguments_are_ignored() -> None:
    def f(a: int) -> None: ...

    assert bind(f, {"a": 1, "zzz": 2}) == {"a": 1}


def test_bad_values_name_the_argument() -> None:
    def f(c: Color) -> None: ...

    with pytest.raises(ValueError, match="argument 'c'"):
        bind(f, {"c": "blue"})


def test_string_arguments_of_prompts_and_templates_are_parsed() -> None:
    def f(n: int, x: float, yes: bool, c: Level, lit: Literal[1, 2], day: datetime.date, name: str) -> None: ...

    kwargs = bind(
        f, {"n": "5", "x": "1.5", "yes": "true", "c": "1", "lit": "2", "day": "2024-01-02", "name": "7"}, strings=True
    )
    assert kwargs == {
        "n": 5,
        "x": 1.5,
        "yes": True,
        "c": Level.LOW,
        "lit": 2,
        "day": datetime.date(2024, 1, 2),
        "name": "7",
    }


def test_the_context_is_injected_by_name() -> None:
    def f(a: int, ctx: Any) -> None: ...

    binder = Binder(read_signature(f, skip=["ctx"]), context_param="ctx")
    marker = object()
    assert binder({"a": 1}, marker) == {"a": 1, "ctx": marker}


def test_pydantic_signatures_are_validated_by_pydantic() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Person(pydantic.BaseModel):
        name: str
        age: int = 0

    def f(p: Person, n: int = 1) -> None: ...

    from ferrymcp import _schema

    signature = read_signature(f)
    spec = _schema.tool_input(signature)
    binder = Binder(signature, context_param=None, validate=spec.validate)
    kwargs = binder({"p": '{"name": "Ada"}', "n": "3"}, None)
    assert kwargs == {"p": Person(name="Ada"), "n": 3}
    with pytest.raises(pydantic.ValidationError):
        binder({"p": {"age": 1}}, None)
