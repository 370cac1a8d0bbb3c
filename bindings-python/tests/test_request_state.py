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
import logging
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


# The server's log names each line's logger (test_a_state_not_minted_here_is_logged_with_why).
logging.basicConfig(format="%(name)s|%(levelname)s|%(message)s")
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


# Request-state keys are secret randomness of at least 32 bytes (core's rule).
K1, K2, OLD, NEW = ("k1" * 16, "k2" * 16, "old-" * 8, "new-" * 8)
ENV_KEY = "a key from the environment, 32+ bytes"


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
    a, b, other = replica(script, K1), replica(script, K1), replica(script, K2)
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
    old, rotating, retired = replica(script, OLD), replica(script, NEW, OLD), replica(script, NEW)
    env_a = replica(script, env={"FERRYMCP_STATE_KEY": ENV_KEY})
    env_b = replica(script, env={"FERRYMCP_STATE_KEY": ENV_KEY})
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
        RequestStateSecurity(keys=[K1], bind_principal=lambda ctx: "me")
    assert RequestStateSecurity(keys=[K1], audience="billing").audience == "billing"
    with pytest.raises(TypeError, match="request_state_security"):
        MCPServer("s", request_state_security="k")
    assert RequestStateSecurity.ephemeral().keys[0] != RequestStateSecurity.ephemeral().keys[0]


def test_a_state_not_minted_here_is_logged_with_why(script: Path) -> None:
    """The wire answer is the frozen one; the reason goes to the server's log as the
    official SDK's does, on its logger `mcp.server.request_state` in ferrymcp's namespace
    (core's event, forwarded to Python's `logging`)."""
    server = replica(script, K1)
    retry = {**PARAMS, "inputResponses": {"user_name": {"action": "decline"}}, "requestState": "round-1-from-b"}
    assert retry_on(server, retry)["error"]["message"] == "Invalid or expired requestState"
    other = replica(script, K2)
    sealed_elsewhere = {**retry, "requestState": first_round(other)["requestState"]}
    assert other.close() == 0
    assert retry_on(server, sealed_elsewhere)["error"]["message"] == "Invalid or expired requestState"
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.process.wait() == 0
    assert server.stderr().splitlines() == [
        "ferrymcp.server.request_state|WARNING|requestState rejected on tools/call: malformed",
        "ferrymcp.server.request_state|WARNING|requestState rejected on tools/call: seal",
    ]


def test_a_short_key_is_refused_when_the_security_is_made() -> None:
    """Core's rule (the official one): a key is at least 32 bytes of secret randomness."""
    from ferrymcp.server.mcpserver import RequestStateSecurity

    with pytest.raises(ValueError) as refused:
        RequestStateSecurity(keys=[K1, b"hunter2"])
    assert str(refused.value) == (
        "request-state keys must be at least 32 bytes of secret randomness; keys[1] is 7 bytes. "
        'Generate one with: python -c "import secrets; print(secrets.token_hex(32))"'
    )
    with pytest.raises(TypeError, match=r"keys\[0\] is int"):
        RequestStateSecurity(keys=[32])  # type: ignore[list-item]
    assert RequestStateSecurity(keys=[bytes(range(32))]).keys == [bytes(range(32))]


def test_a_short_key_from_the_environment_is_refused_when_the_server_is_made(tmp_path: Path) -> None:
    """`FERRYMCP_STATE_KEY` is held to the same core check as `RequestStateSecurity(keys=)`:
    a server whose key is short does not start (it would seal with a guessable key)."""
    import subprocess

    script = tmp_path / "server.py"
    script.write_text("from ferrymcp import MCPServer\nMCPServer('s').run()\n")
    env = {**os.environ, "FERRYMCP_STATE_KEY": "hunter2"}
    refused = subprocess.run(
        [sys.executable, str(script)], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert refused.stderr.splitlines()[-1] == (
        "ValueError: FERRYMCP_STATE_KEY: request-state keys must be at least 32 bytes of secret randomness; "
        "keys[0] is 7 bytes."
    )
    env["FERRYMCP_STATE_KEY"] = ENV_KEY
    served = subprocess.run(
        [sys.executable, str(script)], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert served.returncode == 0, served.stderr
