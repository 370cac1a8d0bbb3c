"""The results of `ctx.elicit(...)` and the form schema sent with it, as the official SDK.

A form elicitation's schema is a pydantic model (the official SDK's way; its JSON Schema
is rendered as the official SDK renders it: `Optional[X]` as `X`, no `null` defaults) or
a plain dict that already is the `requestedSchema`. The answer is an
`AcceptedElicitation` (with the model instance, or the content dict, as `data`), a
`DeclinedElicitation` or a `CancelledElicitation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

T = TypeVar("T")


@dataclass
class AcceptedElicitation(Generic[T]):
    """The user accepted and filled the form: `data` is what they entered."""

    data: T
    action: Literal["accept"] = "accept"


@dataclass
class DeclinedElicitation:
    """The user declined."""

    action: Literal["decline"] = "decline"


@dataclass
class CancelledElicitation:
    """The user dismissed the request."""

    action: Literal["cancel"] = "cancel"


@dataclass
class AcceptedUrlElicitation:
    """The user agreed to open the URL (what happens there is out of band)."""

    action: Literal["accept"] = "accept"


ElicitationResult = AcceptedElicitation[T] | DeclinedElicitation | CancelledElicitation
UrlElicitationResult = AcceptedUrlElicitation | DeclinedElicitation | CancelledElicitation


def requested_schema(schema: Any) -> dict[str, Any]:
    """The `requestedSchema` for a form: a dict as it is, a pydantic model rendered."""
    if isinstance(schema, dict):
        return schema
    if callable(getattr(schema, "model_json_schema", None)):
        return _render_model(schema)
    raise TypeError(f"an elicitation schema is a pydantic model class or a JSON Schema dict, not {schema!r}")


def parse_answer(
    schema: Any, answer: dict[str, Any]
) -> AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation:
    """The typed result of an `ElicitResult` dict."""
    action = answer.get("action")
    if action == "accept":
        content = answer.get("content")
        if content is None:
            raise ValueError("Received an accepted elicitation with no content")
        if isinstance(schema, dict):
            return AcceptedElicitation(data=content)
        try:
            return AcceptedElicitation(data=schema.model_validate(content))
        except ValueError as exc:
            raise ValueError(
                "Received an accepted elicitation whose content does not match the requested schema"
            ) from exc
    if action == "decline":
        return DeclinedElicitation()
    return CancelledElicitation()


def parse_url_answer(answer: dict[str, Any]) -> AcceptedUrlElicitation | DeclinedElicitation | CancelledElicitation:
    """The typed result of a URL-mode `ElicitResult` dict."""
    action = answer.get("action")
    if action == "accept":
        return AcceptedUrlElicitation()
    if action == "decline":
        return DeclinedElicitation()
    return CancelledElicitation()


def _render_model(model: Any) -> dict[str, Any]:
    from pydantic.json_schema import GenerateJsonSchema

    class FlatOptionals(GenerateJsonSchema):
        def nullable_schema(self, schema: Any) -> Any:
            return self.generate_inner(schema["schema"])

        def default_schema(self, schema: Any) -> Any:
            result = super().default_schema(schema)
            if result.get("default") is None:
                result.pop("default", None)
            return result

    schema: dict[str, Any] = model.model_json_schema(schema_generator=FlatOptionals)
    return schema
