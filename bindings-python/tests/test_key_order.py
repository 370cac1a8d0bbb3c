"""JSON object key order, end to end: the same server source (peers/ordered_server.py) on
ferrymcp and on the official SDK (PyPI `mcp` 2.3.0), each a real process read over stdio
by the official client and by ferrymcp's, in both eras.

A tool's input and output schemas, its structuredContent (nested too), a form's fields,
and an object argument on its way to the tool must keep the order the author wrote
(`zeta, alpha, mid`), as the official SDK keeps it; an engine whose JSON objects re-sort
their keys fails every one of these. And ferrymcp's schemas are the official SDK's to the
field, key order included.

Needs the native module, and `mcp` for the official peers.
"""

import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from conftest import HERE

import ferrymcp

SERVER = HERE / "peers" / "ordered_server.py"
KEYS = ["zeta", "alpha", "mid"]
ERAS = ["legacy", "2026-07-28"]


def command(server: str) -> list[str]:
    return [sys.executable, str(SERVER), server]


def client(kind: str, server: str, mode: str, forms: list[dict[str, Any]]) -> Any:
    """The official client or ferrymcp's over stdio, noting the forms it is asked to fill."""
    answer = {"zeta": "z", "alpha": "a", "mid": "m"}
    if kind == "official":

        async def official_form(context: Any, params: Any) -> Any:
            forms.append(params.requested_schema)
            return mcp.types.ElicitResult(action="accept", content=answer)

        params = mcp.StdioServerParameters(command=sys.executable, args=[str(SERVER), server])
        return mcp.Client(params, mode=mode, elicitation_callback=official_form)

    async def ferrymcp_form(context: Any, params: Any) -> Any:
        forms.append(params.requested_schema)
        return ferrymcp.ElicitResult(action="accept", content=answer)

    return ferrymcp.Client(command(server), mode=mode, elicitation_callback=ferrymcp_form)


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("kind", ["official", "ferrymcp"])
@pytest.mark.parametrize("server", ["ferrymcp", "official"])
async def test_keys_keep_the_order_the_author_wrote(server: str, kind: str, mode: str) -> None:
    forms: list[dict[str, Any]] = []
    async with client(kind, server, mode, forms) as c:
        tool = next(t for t in (await c.list_tools()).tools if t.name == "ordered")
        assert list(tool.input_schema["properties"]) == [*KEYS, "extra"]
        assert tool.input_schema["required"] == [*KEYS, "extra"]
        assert tool.output_schema is not None
        assert list(tool.output_schema["properties"]) == [*KEYS, "nested", "extra"]

        extra = {"k": 1, "c": 2, "x": 3}
        result = await c.call_tool("ordered", {"zeta": "z", "alpha": 1, "mid": True, "extra": extra})
        assert list(result.structured_content) == [*KEYS, "nested", "extra"]
        assert list(result.structured_content["nested"]) == ["y", "b"]
        # The object argument reached the tool with its keys in the client's order.
        assert result.structured_content["extra"] == ["k", "c", "x"]

        if mode != "legacy":
            return  # the server asks for input only on a legacy session's back-channel (both as the official)
        assert (await c.call_tool("ordered_form", {})).content[0].text == "accept"
        assert [list(form["properties"]) for form in forms] == [KEYS]


def field_orders(schema: Any, at: str = "") -> dict[str, list[str]]:
    """The key order of every `properties` object in a schema, by where it is."""
    found: dict[str, list[str]] = {}
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found[f"{at}/properties"] = list(value)
            found.update(field_orders(value, f"{at}/{key}"))
    return found


@pytest.mark.parametrize("mode", ERAS)
async def test_ferrymcp_lists_the_official_schemas_fields_in_the_same_order(mode: str) -> None:
    """The same source's tool schemas from both servers, read by one client: equal, and
    every object's fields (nested `$defs` too) in the same order. (The official server
    also re-serialises a schema's root through its per-revision wire models, which puts
    the keys it declares first; ferrymcp sends the root as pydantic orders it.)"""
    listed = {}
    for server in ("ferrymcp", "official"):
        async with client("official", server, mode, []) as c:
            tools = (await c.list_tools()).tools
            listed[server] = {t.name: (t.input_schema, t.output_schema) for t in tools}
    assert listed["ferrymcp"] == listed["official"]
    orders = {
        server: {name: [field_orders(s) for s in schemas] for name, schemas in tools.items()}
        for server, tools in listed.items()
    }
    assert orders["ferrymcp"] == orders["official"]
    assert orders["ferrymcp"]["ordered"][1]["/$defs/Nested/properties"] == ["y", "b"]
