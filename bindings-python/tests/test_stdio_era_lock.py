"""A stdio stream's era, decided by its first request as the official Python server's
dual-era loop decides it (core's `Dialect::locks_stream_era`), and the 2026-07-28
envelope refused in the official ladder's words on stdio as over HTTP.

The same server (peers/resolver_server.py, written once against the official `MCPServer`
API) runs on the official `mcp` package and on ferrymcp, each as a real child process
over stdio; one line-level client sends both the same requests and the answers must be
the official ones.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")

from raw_stdio import LEGACY, MODERN, PATIENCE, RawServer, modern_meta  # noqa: E402
from serving import HERE  # noqa: E402

PEER = HERE / "peers" / "resolver_server.py"

VERSION = "io.modelcontextprotocol/protocolVersion"


def envelope(**changes: Any) -> dict[str, Any]:
    """A valid 2026-07-28 `_meta` with `changes` (key names without the prefix) applied."""
    return {"_meta": {**modern_meta(), **{f"io.modelcontextprotocol/{k}": v for k, v in changes.items()}}}


INITIALIZE = {
    "protocolVersion": LEGACY,
    "capabilities": {},
    "clientInfo": {"name": "raw-client", "version": "1.0"},
}

# Each story: the lines sent in order; a request's answer is read before the next line.
STORIES: dict[str, list[dict[str, Any]]] = {
    "modern stream refuses the handshake and bare requests": [
        {"id": 1, "method": "tools/list", "params": {"_meta": modern_meta()}},
        {"id": 2, "method": "initialize", "params": INITIALIZE},
        {"id": 3, "method": "ping"},
        {"id": 4, "method": "initialize", "params": {"_meta": modern_meta()}},
    ],
    "handshake stream refuses the envelope": [
        {"id": 1, "method": "initialize", "params": INITIALIZE},
        {"method": "notifications/initialized"},
        {"id": 2, "method": "tools/list", "params": {"_meta": modern_meta()}},
        {"id": 3, "method": "ping", "params": {"_meta": modern_meta()}},
        {"id": 4, "method": "ping"},
    ],
    "the envelope's defects in the ladder's words": [
        {"id": 1, "method": "tools/list", "params": {"_meta": modern_meta()}},
        {"id": 2, "method": "tools/list", "params": {"_meta": {VERSION: MODERN}}},
        {"id": 3, "method": "tools/list", "params": envelope(protocolVersion="2099-01-01")},
        {"id": 4, "method": "tools/list", "params": envelope(protocolVersion=5)},
        {"id": 5, "method": "tools/list", "params": {}},
        {"id": 6, "method": "tools/list", "params": envelope(logLevel="loud")},
        {"id": 7, "method": "ping", "params": {"_meta": modern_meta()}},
    ],
}


def answers(sdk: str, story: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What `sdk`'s server answers each request of `story`: errors whole, results by
    their member names (the values are the servers' own)."""
    server = RawServer([sys.executable, str(PEER), "stdio", sdk], MODERN)
    assert server.process.stdin is not None
    seen = []
    try:
        for message in story:
            server.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
            server.process.stdin.flush()
            if "id" not in message:
                continue
            line = server._lines.get(timeout=PATIENCE)
            assert line, f"{sdk}'s server closed stdout; stderr: {server.stderr()}"
            answer = json.loads(line)
            assert answer["id"] == message["id"], answer
            seen.append({"error": answer["error"]} if "error" in answer else {"result": sorted(answer["result"])})
    finally:
        assert server.close() == 0
    return seen


@pytest.mark.parametrize("story", list(STORIES))
def test_a_stdio_stream_answers_as_the_official_dual_era_loop(story: str) -> None:
    official = answers("official", STORIES[story])
    assert answers("ferrymcp", STORIES[story]) == official
    # What the official loop answers, so the comparison cannot pass on two wrong answers.
    codes = [a["error"]["code"] if "error" in a else None for a in official]
    expected = {
        "modern stream refuses the handshake and bare requests": [None, -32022, -32602, -32022],
        "handshake stream refuses the envelope": [None, -32600, -32600, None],
        "the envelope's defects in the ladder's words": [None, -32602, -32022, -32602, -32602, -32602, -32601],
    }
    assert codes == expected[story]
