"""RFC 6570 URI templates that match as well as expand (`mcp.shared.uri_template`).

Parsing, expansion and matching are ferrymcp-core's (`core/src/server/template.rs`), the
same code that routes `resources/read` to a template's handler, with the official SDK's
rules: levels 1 to 3 plus the explode modifier of `{/var*}`, `{.var*}` and `{;var*}`; a
template that matching could not read back unambiguously is refused at parse time; a
trailing `{?...}` run matches leniently (any order, any subset, extra parameters
ignored); values are percent-decoded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias, cast

if TYPE_CHECKING:  # the engine loads on the first parse, not at import
    from ferrymcp._native import NativeUriTemplate

__all__ = [
    "DEFAULT_MAX_TEMPLATE_LENGTH",
    "DEFAULT_MAX_VARIABLES",
    "DEFAULT_MAX_URI_LENGTH",
    "InvalidUriTemplate",
    "Operator",
    "UriTemplate",
    "Variable",
]

Operator: TypeAlias = Literal["", "+", "#", ".", "/", ";", "?", "&"]

DEFAULT_MAX_TEMPLATE_LENGTH = 8_192
DEFAULT_MAX_VARIABLES = 256
DEFAULT_MAX_URI_LENGTH = 65_536


class InvalidUriTemplate(ValueError):
    """A template that is malformed, too large, or that matching could not read back.

    `template` is the template; `position` the character offset of the expression at
    fault, or None when the fault is not one expression's.
    """

    def __init__(self, message: str, *, template: str, position: int | None = None) -> None:
        super().__init__(message)
        self.template = template
        self.position = position


@dataclass(frozen=True)
class Variable:
    """One variable of a template: its name, its expression's operator, and whether it
    is exploded (`{/path*}`)."""

    name: str
    operator: Operator
    explode: bool = False


class UriTemplate:
    """A parsed RFC 6570 URI template; make one with `UriTemplate.parse`. Immutable and
    hashable; two templates are equal when their text is."""

    __slots__ = ("template", "_native", "_variables", "_query")
    template: str
    _native: NativeUriTemplate
    _variables: tuple[Variable, ...]
    _query: frozenset[str]

    def __init__(self, template: str, _native: NativeUriTemplate | None = None) -> None:
        native = (
            _native if _native is not None else _parse(template, DEFAULT_MAX_TEMPLATE_LENGTH, DEFAULT_MAX_VARIABLES)
        )
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "_native", native)
        variables = tuple(Variable(name, cast(Operator, op), explode) for name, op, explode in native.variables())
        object.__setattr__(self, "_variables", variables)
        object.__setattr__(self, "_query", frozenset(native.query_variables()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    @staticmethod
    def is_template(value: str) -> bool:
        """Whether `value` has a `{...}` expression (a cheap test: it does not parse)."""
        open_at = value.find("{")
        return open_at != -1 and value.find("}", open_at) != -1

    @classmethod
    def parse(
        cls,
        template: str,
        *,
        max_length: int = DEFAULT_MAX_TEMPLATE_LENGTH,
        max_variables: int = DEFAULT_MAX_VARIABLES,
    ) -> UriTemplate:
        """Parses `template`; raises `InvalidUriTemplate` when it is malformed, exceeds
        the limits, or uses what matching does not support."""
        return cls(template, _parse(template, max_length, max_variables))

    @property
    def variables(self) -> list[Variable]:
        """Every variable, in order of appearance."""
        return list(self._variables)

    @property
    def variable_names(self) -> list[str]:
        """Every variable's name, in order of appearance."""
        return [v.name for v in self._variables]

    @property
    def query_variable_names(self) -> frozenset[str]:
        """The variables `match` treats as optional query parameters (a trailing run of
        `{?...}`/`{&...}` expressions starting with `{?...}`): a URI may leave them out,
        and they are then absent from the result."""
        return self._query

    def expand(self, variables: Mapping[str, str | Sequence[str]]) -> str:
        """The URI for these values (str, or a sequence of str); a variable not given is
        left out, as RFC 6570 says. Raises `TypeError` for any other value."""
        values: dict[str, str | list[str]] = {}
        for name, value in variables.items():
            if isinstance(value, str):
                values[name] = value
            elif isinstance(value, Sequence) and all(isinstance(item, str) for item in value):
                values[name] = list(value)
            elif name in self.variable_names:
                raise TypeError(f"Variable {name!r} must be str or a sequence of str, got {type(value).__name__}")
        return self._native.expand(values)

    def match(self, uri: str, *, max_uri_length: int = DEFAULT_MAX_URI_LENGTH) -> dict[str, str | list[str]] | None:
        """The variables of `uri` if it fits this template (str values, a list for an
        exploded variable), percent-decoded; None if it does not fit or is longer than
        `max_uri_length`."""
        return self._native.match(uri, max_uri_length)

    def __str__(self) -> str:
        return self.template

    def __repr__(self) -> str:
        return f"UriTemplate(template={self.template!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UriTemplate):
            return NotImplemented
        return self.template == other.template

    def __hash__(self) -> int:
        return hash(self.template)


def _parse(template: str, max_length: int, max_variables: int) -> NativeUriTemplate:
    from ferrymcp._native import NativeUriTemplate

    try:
        return NativeUriTemplate(template, max_length, max_variables)
    except ValueError as error:
        message, position = error.args
        raise InvalidUriTemplate(message, template=template, position=position) from None
