"""MCP tools and tool results in the shapes of the LLM APIs (a ferrymcp addition).

`tool_definitions(api, tools)` gives the `tools` parameter of OpenAI Chat Completions
(`api="openai-chat"`), OpenAI Responses (`"openai-responses"`) or Anthropic Messages
(`"anthropic"`); `tool_result(api, call_id, result)` gives the items to append to the
conversation for one tool call's result (Chat Completions: a `tool` message, then a `user`
message with the images; Responses: a `function_call_output` item; Anthropic: a
`tool_result` block for the next user message). The conversion is ferrymcp-core's, so
Python and Node emit the same JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ferrymcp import _native
from ferrymcp._jsonable import jsonable

LlmApi = Literal["openai-chat", "openai-responses", "anthropic"]


def _plain(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(by_alias=True, exclude_none=True, mode="json")
    return jsonable(value)


def tool_definitions(api: LlmApi, tools: Iterable[Any] | Mapping[str, Any]) -> list[dict[str, Any]]:
    """`tools` (`Tool`s or tool dicts; a mapping's keys are the names to offer, as in
    `ClientSessionGroup.tools`) as `api`'s `tools` parameter."""
    if isinstance(tools, Mapping):
        plain = [{**_plain(tool), "name": name} for name, tool in tools.items()]
    else:
        plain = [_plain(tool) for tool in tools]
    definitions: list[dict[str, Any]] = _native.llm_tool_definitions(api, plain)
    return definitions


def tool_result(api: LlmApi, call_id: str, result: Any) -> list[dict[str, Any]]:
    """A `CallToolResult` (or its dict) as the items `api` takes for call `call_id`."""
    items: list[dict[str, Any]] = _native.llm_tool_result(api, call_id, _plain(result))
    return items


__all__ = ["LlmApi", "tool_definitions", "tool_result"]
