"""Signatures that involve pydantic: models, `Field(...)` metadata and defaults.

ferrymcp hands these to pydantic (which the user's code has already imported), as the
official SDK does; the schemas must come out the same.
"""

# ruff: noqa: B006 - the battery spells types every way users do

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, Field

BATTERY: list[Callable[..., Any]] = []


def case(fn: Callable[..., Any]) -> Callable[..., Any]:
    BATTERY.append(fn)
    return fn


class Address(BaseModel):
    """Where someone lives."""

    street: str
    city: str = "Paris"


class Person(BaseModel):
    name: str = Field(description="Full name")
    age: int = Field(ge=0, le=150)
    address: Address | None = None


class Node(BaseModel):
    value: int
    children: list[Node] = []


@case
def with_model(person: Person, tags: list[str] = []) -> str: ...


@case
def with_field_metadata(
    a: Annotated[int, Field(description="The first number", ge=1)], b: int = Field(2, description="The second")
) -> int: ...


@case
def returns_model(name: str) -> Person: ...


@case
def returns_model_list() -> list[Address]: ...


@case
def returns_recursive_model() -> Node: ...


@case
def returns_optional_model() -> Address | None: ...
