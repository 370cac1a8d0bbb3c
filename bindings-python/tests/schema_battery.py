"""Functions whose tool schemas ferrymcp must write exactly as the official SDK does.

Each is registered as a tool with the official `MCPServer` and with ferrymcp, and the
`inputSchema` and `outputSchema` compared (test_schema_parity.py). TypedDicts come from
`typing_extensions`: the official SDK refuses `typing.TypedDict` parameters below Python
3.12 (ferrymcp accepts both; see test_schema_parity.py).
"""

# ruff: noqa: B006, B008 - the battery spells types every way users do

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import pathlib
import typing
import uuid
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NewType

from typing_extensions import NotRequired, Required, TypedDict

BATTERY: list[typing.Callable[..., Any]] = []


def case(fn: typing.Callable[..., Any]) -> typing.Callable[..., Any]:
    BATTERY.append(fn)
    return fn


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Documented(enum.Enum):
    """A documented enum."""

    A = "a"


class Mixed(enum.Enum):
    ONE = 1
    B = "b"


class Half(float, enum.Enum):
    H = 0.5


class Movie(TypedDict):
    title: str
    year: int
    rating: NotRequired[float]


class PartialMovie(TypedDict, total=False):
    """A movie, every key optional."""

    title: str
    sequel: Required[bool]


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class DocumentedPoint:
    """A documented point."""

    x: float
    label: str | None = None


@dataclasses.dataclass
class Inner:
    color: Color


@dataclasses.dataclass
class Tree:
    inner: Inner
    leaves: list[Inner]
    child: Tree | None = None


class Annotated3:
    a: int
    b: str = "q"


class NoHints:
    pass


UserId = NewType("UserId", int)


# -- inputs ---------------------------------------------------------------------------


@case
def scalars(a: int, b: float, c: str, d: bool, e: None) -> None:
    """Scalars of every kind."""


@case
def optionals(a: int | None, b: int | None = None, c: int | str = 1, d: int | str | None = None) -> None: ...


@case
def union_order(a: int | None, b: int | float, c: int | bool, d: int | str | None) -> None: ...


@case
def containers(
    a: list,
    b: list[int],
    c: dict,
    d: dict[str, int],
    e: tuple[int, str],
    f: tuple[int, ...],
    g: set[str],
    h: frozenset[int],
    i: dict[int, str],
) -> None: ...


@case
def abstract_containers(
    a: Sequence[int],
    b: Mapping[str, int],
    c: list[str],
    d: dict[str, float],
    e: tuple[int, str],
    f: set[int],
    g: tuple,
    h: tuple[()] = (),
) -> None: ...


@case
def literals(
    a: Literal["x", "y"],
    b: Literal["only"],
    c: Literal[1, 2],
    d: Literal["a", 1],
    e: Literal[True],
    f: Literal["x", None] = None,
    g: Literal[Color.RED] = Color.RED,
) -> None: ...


@case
def enums(
    a: Color,
    b: Level,
    c: Documented,
    d: Mixed,
    e: Half,
    f: Color = Color.RED,
    g: list[Color] = [],
    h: Color | None = None,
) -> None: ...


@case
def typed_dicts(a: Movie, b: PartialMovie, c: list[Movie], d: dict[str, Movie]) -> None: ...


@case
def dataclasses_in(
    a: Point, b: DocumentedPoint, c: Point | None = None, d: Point = Point(1, 2), e: list[Point] = []
) -> None: ...


@case
def recursive(a: Tree) -> None: ...


@case
def untyped(a, b=3, c: Any = None, d: object = None, e: bytes = b"x") -> None: ...


@case
def formats(
    a: datetime.datetime,
    b: datetime.date,
    c: datetime.time,
    d: datetime.timedelta,
    e: uuid.UUID,
    f: pathlib.Path,
    g: decimal.Decimal,
    h: datetime.datetime = datetime.datetime(2020, 1, 1),
) -> None: ...


@case
def basemodel_names(json: str, copy: int, schema: str = "s") -> None: ...


@case
def defaults(
    a: int = 5,
    b: float = 1,
    c: str = "s",
    d: bool = False,
    e: list[int] = [1, 2],
    f: tuple[int, int] = (1, 2),
    g: dict[str, int] = {"a": 1},
    h: set[int] = {3, 1, 2},
) -> None: ...


@case
def nested(
    a: list[list[int]], b: list[str] | None = None, c: list[int | None] = [], d: dict[str, list[Point]] = {}
) -> None: ...


@case
def annotated_plain(
    a: Annotated[int, "a description pydantic ignores"], b: Annotated[str, "x"] = "z", c: UserId = UserId(1)
) -> None: ...


@case
def titles(user_name: str, camelCase: int, x1y: str, a__b: int) -> None: ...


@case
def keyed_maps(a: dict[Literal["a", "b"], int], b: dict[Color, str], c: dict[str, Any]) -> None: ...


@case
def nothing() -> None: ...


@case
def var_args(*args, **kwargs) -> None: ...


@case
def type_param(t: type[int]) -> None: ...


# -- outputs ----------------------------------------------------------------------------


@case
def returns_str() -> str: ...


@case
def returns_int() -> int: ...


@case
def returns_float() -> float: ...


@case
def returns_bool() -> bool: ...


@case
def returns_bytes() -> bytes: ...


@case
def returns_dict_str() -> dict[str, int]: ...


@case
def returns_dict_any() -> dict[str, Any]: ...


@case
def returns_bare_dict() -> dict: ...


@case
def returns_dict_int_keys() -> dict[int, str]: ...


@case
def returns_typing_dict() -> dict[str, int]: ...


@case
def returns_list() -> list[int]: ...


@case
def returns_list_of_points() -> list[Point]: ...


@case
def returns_tuple() -> tuple[int, str]: ...


@case
def returns_optional() -> int | None: ...


@case
def returns_union() -> int | str: ...


@case
def returns_literal() -> Literal["a", "b"]: ...


@case
def returns_dataclass() -> Point: ...


@case
def returns_documented_dataclass() -> DocumentedPoint: ...


@case
def returns_typed_dict() -> Movie: ...


@case
def returns_partial_typed_dict() -> PartialMovie: ...


@case
def returns_annotated_class() -> Annotated3: ...


@case
def returns_class_without_hints() -> NoHints: ...


@case
def returns_enum() -> Color: ...


@case
def returns_any() -> Any: ...


@case
def returns_datetime() -> datetime.datetime: ...


@case
def returns_annotated() -> Annotated[int, "x"]: ...


@case
def returns_optional_dataclass() -> Point | None: ...


@case
def returns_nothing_declared(): ...
