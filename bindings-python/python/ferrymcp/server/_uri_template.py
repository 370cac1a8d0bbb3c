"""The variable names of an RFC 6570 URI template, to check them at registration.

Matching URIs against templates is the engine's job; Python only needs the names, to
check that a template's variables are its function's parameters, and which of them are
query variables (`{?q}`, `{&q}`), which a client may leave out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_OPERATORS = "+#./;?&"
_NAME = re.compile(r"^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$")


@dataclass(frozen=True)
class UriTemplate:
    template: str
    variables: tuple[str, ...]
    query_variables: tuple[str, ...]

    @property
    def is_template(self) -> bool:
        return bool(self.variables)


def parse(template: str) -> UriTemplate:
    """Reads the variables of `template`; raises `ValueError` when it is malformed."""
    if _EXPRESSION.sub("", template).count("{") or _EXPRESSION.sub("", template).count("}"):
        raise ValueError(f"URI template {template!r} has unbalanced braces")
    variables: list[str] = []
    query: list[str] = []
    for expression in _EXPRESSION.findall(template):
        operator = expression[:1] if expression[:1] in _OPERATORS else ""
        for spec in expression[len(operator) :].split(","):
            name = spec.rstrip("*").split(":", 1)[0]
            if not _NAME.match(name):
                raise ValueError(f"URI template {template!r} has an invalid variable {spec!r}")
            if name in variables:
                raise ValueError(f"URI template {template!r} names the variable {name!r} twice")
            variables.append(name)
            if operator in ("?", "&"):
                query.append(name)
    return UriTemplate(template, tuple(variables), tuple(query))
