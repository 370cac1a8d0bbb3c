"""1.x's low-level `@server.call_tool()` checks each call against what
`@server.list_tools()` listed: the arguments against the `inputSchema` (unless
`validate_input=False`), a structured result against the `outputSchema`, each failure an
`isError` result; a name not known yet makes it list again. The server runs as a stdio
child, driven by the official client. The answers are asserted as the official 1.x server
gives them (the validator's own sentence is the `jsonschema` crate's where 1.x's is the
Python package's, so only its start is compared), and compared with that server when
`FERRYMCP_V1_PYTHON` names an interpreter that has `mcp<2`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

PEERS = Path(__file__).resolve().parent / "peers"
V1_PYTHON = os.environ.get("FERRYMCP_V1_PYTHON")

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("add", {"a": 1, "b": 2}),
    ("add", {"a": 1}),
    ("add", {"a": "x", "b": 2}),
    ("lies", {"a": 1, "b": 2}),
    ("bare", {"a": 1, "b": 2}),
    ("raw", {"a": 1, "b": 2}),
    ("late", {"a": 2, "b": 2}),
    ("late", {"a": 2}),
    ("unlisted", {"a": 1}),
]


async def answers(python: str, sdk: str, validate: bool) -> list[dict[str, Any]]:
    params = mcp.StdioServerParameters(
        command=python, args=[str(PEERS / "v1_validation_server.py"), sdk, "1" if validate else "0"]
    )
    seen = []
    async with mcp.Client(params, mode="legacy") as c:
        for name, arguments in CALLS:
            called = await c.call_tool(name, arguments)
            seen.append(
                {
                    "isError": called.is_error,
                    "text": [b.model_dump()["text"] for b in called.content],
                    "structured": called.structured_content,
                }
            )
    return seen


def shape(seen: list[dict[str, Any]]) -> list[Any]:
    """What must match exactly: everything but the validator's own sentence."""
    return [
        (s["isError"], [t.split(": ", 1)[0] if "validation error" in t else t for t in s["text"]], s["structured"])
        for s in seen
    ]


@pytest.mark.parametrize("validate", [True, False])
async def test_calls_are_checked_against_the_listing(validate: bool) -> None:
    seen = await answers(sys.executable, "ferrymcp", validate)
    by_call = dict(zip([f"{n} {a}" for n, a in CALLS], seen, strict=True))
    assert by_call["add {'a': 1, 'b': 2}"]["structured"] == {"sum": 3}
    bad = [by_call["add {'a': 1}"], by_call["add {'a': 'x', 'b': 2}"], by_call["late {'a': 2}"]]
    if validate:
        for answer in bad:
            assert answer["isError"] and answer["text"][0].startswith("Input validation error: "), answer
        assert "'b'" in by_call["add {'a': 1}"]["text"][0] or '"b"' in by_call["add {'a': 1}"]["text"][0]
    else:
        assert by_call["add {'a': 1}"]["structured"] == {"sum": 1}, "validate_input=False lets the call through"
        assert by_call["add {'a': 'x', 'b': 2}"]["isError"], "and the tool itself fails on a string"
        assert not any("validation" in answer["text"][0] for answer in bad)
    lies = by_call["lies {'a': 1, 'b': 2}"]
    assert lies["isError"] and lies["text"][0].startswith("Output validation error: ")
    assert by_call["bare {'a': 1, 'b': 2}"] == {
        "isError": True,
        "text": ["Output validation error: outputSchema defined but no structured output returned"],
        "structured": None,
    }
    assert by_call["raw {'a': 1, 'b': 2}"] == {"isError": True, "text": ["as is"], "structured": {"sum": "raw"}}
    assert by_call["late {'a': 2, 'b': 2}"]["structured"] == {"sum": 4}, "a call lists again to find a new tool"
    assert by_call["unlisted {'a': 1}"]["structured"] == {"sum": 1}, "an unlisted tool is called unchecked"


@pytest.mark.skipif(not V1_PYTHON, reason="FERRYMCP_V1_PYTHON (an interpreter with mcp<2) is not set")
@pytest.mark.parametrize("validate", [True, False])
async def test_the_answers_are_the_official_1x_servers(validate: bool) -> None:
    assert V1_PYTHON is not None
    ours = await answers(sys.executable, "ferrymcp", validate)
    theirs = await answers(V1_PYTHON, "official", validate)
    assert shape(ours) == shape(theirs)
