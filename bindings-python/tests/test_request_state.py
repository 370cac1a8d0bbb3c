"""`request_state_security=RequestStateSecurity(keys=[...])` and `FERRYMCP_STATE_KEY`:
the key that seals 2026-07-28 `requestState` is shared, so a retry can go to another
process (a replica) and complete there. Two real server processes over stdio: the first
round on one, the retry on the other; a process with another key refuses the state, and a
key ring (`keys=[new, old]`) opens what the old key sealed while the retired ring does not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from raw_stdio import MODERN, RawServer, check, modern_meta

pytest.importorskip("ferrymcp._native")

SERVER = """
import os
import sys
from ferrymcp import Context, MCPServer
from ferrymcp.server.mcpserver import RequestStateSecurity

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from ferrymcp.server.mcpserver import InvalidRequestState


class Sealed:
    # An application codec: AES-GCM under its own key, hex tokens with a prefix.

    def __init__(self, key: bytes) -> None:
        self.aead = AESGCM(key)

    def seal(self, payload: bytes) -> str:
        if b"explode" in payload:
            raise RuntimeError("the KMS is down")
        nonce = os.urandom(12)
        return "app1." + (nonce + self.aead.encrypt(nonce, payload, None)).hex()

    def unseal(self, token: str) -> bytes:
        if not token.startswith("app1."):
            raise InvalidRequestState("not ours")
        raw = bytes.fromhex(token[5:])
        return self.aead.decrypt(raw[:12], raw[12:], None)


args = sys.argv[1:]
if args and args[0] == "codec":
    security = RequestStateSecurity(codec=Sealed(bytes.fromhex(args[1]) * 2), ttl=60)
else:
    security = RequestStateSecurity(keys=args, ttl=60) if args else None
mcp = MCPServer("replica", request_state_security=security)


@mcp.tool()
async def keyed(ctx: Context) -> str:
    params = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}
    answer = await ctx.request_input("elicitation/create", params, key="user_name")
    return answer["content"]["name"]


@mcp.tool()
async def explode(ctx: Context) -> str:
    await ctx.request_input("elicitation/create", {"message": "?", "requestedSchema": {"type": "object"}})
    return "unreachable"


mcp.run()
"""
PARAMS: dict[str, Any] = {"name": "keyed", "arguments": {}, "_meta": modern_meta(elicitation={})}


def replica(script: Path, *keys: str, env: dict[str, str] | None = None) -> RawServer:
    previous = os.environ.copy()
    try:
        os.environ.update(env or {})
        return RawServer([sys.executable, str(script), *keys], MODERN)
    finally:
        os.environ.clear()
        os.environ.update(previous)


def first_round(server: RawServer) -> dict[str, Any]:
    first = server.request("r1", "CallToolRequest", "tools/call", PARAMS)["result"]
    check(MODERN, "InputRequiredResult", first)
    return {
        **PARAMS,
        "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Zoe"}}},
        "requestState": first["requestState"],
    }


def retry_on(server: RawServer, retry: dict[str, Any]) -> dict[str, Any]:
    return server.request("r2", "CallToolRequest", "tools/call", retry)


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "replica.py"
    path.write_text(SERVER)
    return path


def test_a_retry_completes_on_a_replica_with_the_same_key(script: Path) -> None:
    a, b, other = replica(script, "k1"), replica(script, "k1"), replica(script, "k2")
    try:
        retry = first_round(a)
        assert retry_on(b, retry)["result"]["content"] == [{"type": "text", "text": "Zoe"}]
        refused = retry_on(other, retry)["error"]
        # The official Python SDK's frozen answer to any state that does not open.
        assert (refused["code"], refused["message"]) == (-32602, "Invalid or expired requestState")
        assert refused["data"] == {"reason": "invalid_request_state"}
    finally:
        for server in (a, b, other):
            assert server.close() == 0


def test_a_key_ring_rotates_and_the_environment_gives_the_key(script: Path) -> None:
    old, rotating, retired = replica(script, "old"), replica(script, "new", "old"), replica(script, "new")
    env_a = replica(script, env={"FERRYMCP_STATE_KEY": "from-env"})
    env_b = replica(script, env={"FERRYMCP_STATE_KEY": "from-env"})
    try:
        retry = first_round(old)
        assert "result" in retry_on(rotating, retry)
        assert retry_on(retired, retry)["error"]["code"] == -32602
        assert "result" in retry_on(env_b, first_round(env_a))
    finally:
        for server in (old, rotating, retired, env_a, env_b):
            assert server.close() == 0


def test_an_application_codec_seals_and_the_engine_still_checks_the_envelope(script: Path) -> None:
    key, other_key = "11" * 16, "22" * 16
    a, b, other = replica(script, "codec", key), replica(script, "codec", key), replica(script, "codec", other_key)
    try:
        retry = first_round(a)
        # The codec's token, opaque: the engine's envelope (method, target) is encrypted in it.
        assert retry["requestState"].startswith("app1.")
        assert "keyed" not in bytes.fromhex(retry["requestState"][5:]).decode("latin-1")
        assert retry_on(b, retry)["result"]["content"] == [{"type": "text", "text": "Zoe"}]
        for state in [retry["requestState"], "app1.00", "forged"]:
            refused = retry_on(other if state == retry["requestState"] else b, {**retry, "requestState": state})
            assert (refused["error"]["code"], refused["error"]["message"]) == (
                -32602,
                "Invalid or expired requestState",
            )
        # The envelope is still the engine's: the state of one tool does not retry another.
        moved = retry_on(b, {**retry, "name": "explode"})["error"]
        assert moved["code"] == -32602
        # A codec that fails to seal fails the request with its reason, and the server goes on.
        failed = a.request("r3", "CallToolRequest", "tools/call", {**PARAMS, "name": "explode"})["error"]
        assert failed["code"] == -32603 and "the KMS is down" in failed["message"]
        assert "result" in retry_on(b, first_round(a))
    finally:
        for server in (a, b, other):
            assert server.close() == 0


def test_what_the_engine_does_not_do_is_refused_by_name() -> None:
    from ferrymcp.server.mcpserver import MCPServer, RequestStateSecurity

    with pytest.raises(ValueError, match="exactly one of keys= or codec="):
        RequestStateSecurity()
    with pytest.raises(TypeError, match=r"seal\(payload: bytes\) -> str and unseal"):
        RequestStateSecurity(codec=object())  # type: ignore[arg-type]
    with pytest.raises(NotImplementedError, match="bind_principal"):
        RequestStateSecurity(keys=["k"], bind_principal=lambda ctx: "me")
    assert RequestStateSecurity(keys=["k"], audience="billing").audience == "billing"
    with pytest.raises(TypeError, match="request_state_security"):
        MCPServer("s", request_state_security="k")
    assert RequestStateSecurity.ephemeral().keys[0] != RequestStateSecurity.ephemeral().keys[0]
