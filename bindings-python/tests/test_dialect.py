"""Where the official SDKs answer the same request differently, ferrymcp's Python servers
answer as the official Python SDK does (core's `Dialect::PythonSdk`,
core/src/server/dialect.rs): one `MCPServer` (peers/dialect_server.py) served over stdio by
the official SDK and by ferrymcp, each request asked in both eras by a raw client that
schema-checks every message, the answers compared: the capabilities (`logging` only with a
`logging/setLevel` handler), `logging/setLevel` without one, a completion as the handler
gave it, an unknown or failing resource, a prompt without its required argument or
unknown, and an unknown method.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from raw_stdio import LEGACY, MODERN, RawServer, modern_meta

pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")

PEER = Path(__file__).resolve().parent / "peers" / "dialect_server.py"

# (the request's schema definition, method, params)
REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "CompleteRequest",
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": "p"}},
    ),
    ("ReadResourceRequest", "resources/read", {"uri": "data://nothing"}),
    ("ReadResourceRequest", "resources/read", {"uri": "data://broken"}),
    ("GetPromptRequest", "prompts/get", {"name": "greet"}),
    ("GetPromptRequest", "prompts/get", {"name": "nope"}),
    ("JSONRPCRequest", "vendor/nothing", {}),
]


def answered(sdk: str, revision: str, *extra: str) -> dict[str, Any]:
    """What `sdk`'s server answers at `revision`: its capabilities, and per request the
    error object or the result without the 2026-07-28 stamping."""
    server = RawServer([sys.executable, str(PEER), sdk, *extra], revision)
    seen: dict[str, Any] = {}
    try:
        if revision == MODERN:
            discovered = server.request(1, "DiscoverRequest", "server/discover", {"_meta": modern_meta()})
            seen["capabilities"] = discovered["result"]["capabilities"]
        else:
            seen["capabilities"] = server.initialize()["capabilities"]
            set_level = server.request(2, "SetLevelRequest", "logging/setLevel", {"level": "info"})
            seen["logging/setLevel"] = set_level.get("error", set_level.get("result"))
        for n, (definition, method, params) in enumerate(REQUESTS, start=10):
            if revision == MODERN:
                params = {**params, "_meta": modern_meta()}
            answer = server.request(n, definition, method, params)
            if "error" in answer:
                seen[f"{n} {method}"] = answer["error"]
            else:
                seen[f"{n} {method}"] = {k: v for k, v in answer["result"].items() if k not in ("_meta", "resultType")}
        return seen
    finally:
        assert server.close() == 0


@pytest.mark.parametrize("revision", [LEGACY, MODERN])
def test_answers_as_the_official_python_sdk(revision: str) -> None:
    ours, theirs = answered("ferrymcp", revision), answered("official", revision)
    if revision == LEGACY:
        # Deliberate: ferrymcp's engine carries list changes and subscriptions to legacy
        # sessions too, and says so (README "Deliberate differences").
        for feature in ("tools", "resources", "prompts"):
            theirs["capabilities"][feature] = ours["capabilities"][feature]
    assert ours == theirs
    assert "logging" not in ours["capabilities"]
    assert ours["10 completion/complete"] == {"completion": {"values": ["python"]}}
    assert ours["11 resources/read"]["message"] == "Unknown resource: data://nothing"
    if revision == LEGACY:
        assert ours["logging/setLevel"] == {"code": -32601, "message": "Method not found", "data": "logging/setLevel"}


@pytest.mark.parametrize("revision", [LEGACY, MODERN])
def test_a_set_level_handler_declares_logging(revision: str) -> None:
    ours, theirs = answered("ferrymcp", revision, "set-level"), answered("official", revision, "set-level")
    assert ours["capabilities"]["logging"] == theirs["capabilities"]["logging"] == {}
    if revision == LEGACY:
        assert ours["logging/setLevel"] == theirs["logging/setLevel"] == {}
