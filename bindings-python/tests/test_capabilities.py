"""What an `MCPServer` declares, against the official SDK's `MCPServer` running the same
code (peers/capabilities_server.py) over stdio, every message schema-checked.

Like the official one, ferrymcp's declares tools, resources and prompts even with none
registered (the API registers those lists up front), completions once `@mcp.completion()`
is used, and an extension's settings under `capabilities.extensions`. ferrymcp answers both
eras with the flags the official server gives 2026-07-28 clients (`listChanged` and
`subscribe` true: the engine honours them for legacy sessions too, where the official
server says false), and declares extensions to legacy clients too (as the official
TypeScript SDK does); `logging` only as the official server declares it (with a
`logging/setLevel` handler: test_dialect.py); see core/src/server/capabilities.rs and
core/src/server/dialect.rs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from raw_stdio import LEGACY, MODERN, RawServer, check, modern_meta

from ferrymcp.server.extension import Extension
from ferrymcp.server.mcpserver import MCPServer

PEER = Path(__file__).resolve().parent / "peers" / "capabilities_server.py"
SHAPES = ["empty", "tools", "prompts", "completion", "extension"]


def declared(sdk: str, shape: str, revision: str) -> dict[str, Any]:
    server = RawServer([sys.executable, str(PEER), sdk, shape], revision)
    try:
        if revision == MODERN:
            result = server.request(1, "DiscoverRequest", "server/discover", {"_meta": modern_meta()})["result"]
            check(MODERN, "DiscoverResult", result)
        else:
            result = server.initialize()
        capabilities: dict[str, Any] = result["capabilities"]
        return capabilities
    finally:
        assert server.close() == 0


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("revision", [LEGACY, MODERN])
def test_declares_what_the_official_server_declares(shape: str, revision: str) -> None:
    official = declared("official", shape, MODERN)
    assert set(official) >= {"tools", "resources", "prompts"}
    assert declared("ferrymcp", shape, revision) == official


def test_misdeclared_extensions_raise_naming_them() -> None:
    with pytest.raises(TypeError, match="vendor-prefix/name"):

        class Bare(Extension):
            identifier = "no-prefix"

    class Twice(Extension):
        identifier = "com.example/twice"

    with pytest.raises(ValueError, match="'com.example/twice' is already registered"):
        MCPServer("x", extensions=[Twice(), Twice()])
