"""Small questions about type annotations, shared by the schema builder and the
argument binder: what is inside `Annotated`, `Optional`, `NewType`; is this a
TypedDict, a dataclass, an enum, a pydantic model.

TypedDicts are recognised by shape, not by `typing.is_typeddict`, because
`typing_extensions.TypedDict` classes are not `typing` ones before Python 3.13.
"""

from __future__ import annotations

import collections
import collections.abc as abc
import dataclasses
import enum
import sys
import types
import typing
from typing import Annotated, Any, Literal, Union, get_args, get_origin

NoneType = type(None)
SEQUENCE_ORIGINS = {list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection, collections.deque}
SET_ORIGINS = {set, frozenset, abc.Set, abc.MutableSet}
MAPPING_ORIGINS = {dict, abc.Mapping, abc.MutableMapping}
_QUALIFIERS = {"Required", "NotRequired", "ReadOnly"}


def strip_annotated(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    """The type inside `Annotated[...]` (and inside `NewType`s), with the metadata."""
    metadata: tuple[Any, ...] = ()
    while True:
        if get_origin(tp) is Annotated:
            metadata += tp.__metadata__
            tp = tp.__origin__
        elif callable(tp) and hasattr(tp, "__supertype__"):
            tp = tp.__supertype__
        else:
            return tp, metadata


def loaded_class(module: str, name: str) -> type | None:
    """`module.name` if `module` is already imported, else `None`. A value or an
    annotation of that class implies its module is loaded, so checking for datetimes,
    UUIDs or decimals this way never imports them (keeping `import ferrymcp` fast)."""
    found = sys.modules.get(module)
    return getattr(found, name, None) if found is not None else None


def typeddict_keys(cls: type) -> dict[str, tuple[Any, bool]]:
    """Each key of a TypedDict: its type and whether it is required. `Required` and
    `NotRequired` are read from the annotations, which `__required_keys__` misses when
    the annotations are strings (`from __future__ import annotations`)."""
    required_keys = cls.__required_keys__  # type: ignore[attr-defined]
    keys: dict[str, tuple[Any, bool]] = {}
    for key, hint in class_hints(cls).items():
        qualifiers = set()
        while getattr(get_origin(hint), "_name", None) in _QUALIFIERS:
            qualifiers.add(get_origin(hint)._name)
            (hint,) = get_args(hint)
        if "Required" in qualifiers:
            required = True
        elif "NotRequired" in qualifiers:
            required = False
        else:
            required = key in required_keys
        keys[key] = (hint, required)
    return keys


def is_union(tp: Any) -> bool:
    origin = get_origin(tp)
    return origin is Union or origin is types.UnionType


def optional_arm(tp: Any) -> Any | None:
    """`X` when `tp` is `Optional[X]` (a union of exactly one type and `None`)."""
    if not is_union(tp):
        return None
    arms = get_args(tp)
    rest = [arm for arm in arms if arm is not NoneType]
    return rest[0] if len(rest) == 1 and len(arms) == 2 else None


def is_typeddict(tp: Any) -> bool:
    return (
        isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__") and hasattr(tp, "__total__")
    )


def is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def is_enum_type(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def is_pydantic_model(tp: Any) -> bool:
    """Whether `tp` is a pydantic model class (never imports pydantic)."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)


def involves_pydantic(tp: Any, seen: set[int] | None = None) -> bool:
    """Whether pydantic must read `tp`: a pydantic model or dataclass, or pydantic or
    annotated-types metadata (`Field(...)`, `Gt(0)`) anywhere inside it."""
    if "pydantic" not in sys.modules:
        return False
    seen = set() if seen is None else seen
    if id(tp) in seen:
        return False
    seen.add(id(tp))
    if is_pydantic_model(tp) or hasattr(tp, "__pydantic_fields__") or _from_pydantic(tp):
        return True
    if get_origin(tp) is Annotated:
        if any(_from_pydantic(item) for item in tp.__metadata__):
            return True
        return involves_pydantic(tp.__origin__, seen)
    if hasattr(tp, "__supertype__"):
        return involves_pydantic(tp.__supertype__, seen)
    if get_origin(tp) is not None:
        return any(involves_pydantic(arg, seen) for arg in get_args(tp) if not isinstance(arg, (str, int, float, bool)))
    if is_dataclass_type(tp) or is_typeddict(tp):
        return any(involves_pydantic(hint, seen) for hint in class_hints(tp).values())
    return False


def is_pydantic_field(obj: Any) -> bool:
    """Whether `obj` is a pydantic `Field(...)` (a parameter default, say)."""
    return "pydantic" in sys.modules and type(obj).__module__.startswith("pydantic")


def _from_pydantic(obj: Any) -> bool:
    module = type(obj).__module__ if not isinstance(obj, type) else obj.__module__
    return module.startswith(("pydantic", "annotated_types"))


def class_hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a class (TypedDict qualifiers and `Annotated` kept).

    Python 3.10 leaves string forward references inside builtin generics
    (`list["Node"]`) unresolved; they are resolved here as later Pythons do."""
    hints = typing.get_type_hints(cls, include_extras=True)
    if sys.version_info >= (3, 11):
        return hints
    module = sys.modules.get(cls.__module__)
    namespace = {**(vars(module) if module else {}), cls.__name__: cls}
    return {name: _resolve_forward(hint, namespace) for name, hint in hints.items()}


def _resolve_forward(tp: Any, namespace: dict[str, Any]) -> Any:
    if isinstance(tp, (str, typing.ForwardRef)):
        text = tp if isinstance(tp, str) else tp.__forward_arg__
        return eval(text, namespace)  # the evaluation typing itself does
    args = get_args(tp)
    if not args or get_origin(tp) in (Literal, Annotated):
        return tp
    resolved = tuple(_resolve_forward(arg, namespace) for arg in args)
    if resolved == args:
        return tp
    if isinstance(tp, types.GenericAlias):
        return types.GenericAlias(get_origin(tp), resolved)
    return tp.copy_with(resolved) if hasattr(tp, "copy_with") else tp
