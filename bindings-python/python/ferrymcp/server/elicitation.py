"""Elicitation at the official SDK's path (`mcp.server.elicitation`): the result classes of
`ferrymcp.elicitation`, and the two session-level helpers, which ask through the session
of the request being served (`ctx.session`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ferrymcp.elicitation import (
    AcceptedElicitation,
    AcceptedUrlElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitationResult,
    UrlElicitationResult,
    parse_answer,
    parse_url_answer,
    requested_schema,
)

if TYPE_CHECKING:
    from ferrymcp._session import ServerSession

ElicitSchemaModelT = TypeVar("ElicitSchemaModelT")

__all__ = [
    "AcceptedElicitation",
    "AcceptedUrlElicitation",
    "CancelledElicitation",
    "DeclinedElicitation",
    "ElicitationResult",
    "UrlElicitationResult",
    "elicit_url",
    "elicit_with_validation",
]


async def elicit_with_validation(
    session: ServerSession,
    message: str,
    schema: type[ElicitSchemaModelT],
    related_request_id: Any = None,
) -> ElicitationResult[ElicitSchemaModelT]:
    """Asks the user to fill a form described by a pydantic model; an accepted answer's
    content is validated into that model."""
    answer = await session.elicit_form(message, requested_schema(schema), related_request_id)
    return parse_answer(schema, answer.model_dump(by_alias=True, exclude_none=True))


async def elicit_url(
    session: ServerSession,
    message: str,
    url: str,
    elicitation_id: str,
    related_request_id: Any = None,
) -> UrlElicitationResult:
    """Asks the user to open `url` (URL-mode elicitation)."""
    answer = await session.elicit_url(message, url, elicitation_id, related_request_id)
    return parse_url_answer(answer.model_dump(by_alias=True, exclude_none=True))
