"""ferrymcp's `Client` over Streamable HTTP (core's HTTP client), in both eras, against
real servers on 127.0.0.1: the official SDK's server (PyPI `mcp` 2.3.0), the Rust
conformance fixture (`ferrymcp-everything --transport http`), and ferrymcp's own ASGI app
under uvicorn. Callbacks (sampling, elicitation, roots), progress, headers and the bearer
token, timeouts and cancellation that reach the tool, and a server killed mid-call.

Needs the native module, `mcp`, uvicorn, Starlette and the release build of the Rust
fixture (scripts/test.sh builds it first).
"""

import asyncio
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ferrymcp = pytest.importorskip("ferrymcp")
pytest.importorskip("ferrymcp._native")
pytest.importorskip("mcp")
pytest.importorskip("uvicorn")

import official_peer
from serving import HERE, RUST_EVERYTHING_BIN, Served, rust_everything, uvicorn

from ferrymcp import ConnectionClosed, McpError, RequestTimeout
from ferrymcp.types import ElicitResult, ListRootsResult, Root

ERAS = ["legacy", "2026-07-28"]
# Bounds that only keep a broken peer from hanging the suite.
LIMIT = 10.0


async def until(condition: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + LIMIT
    while not condition():
        assert time.monotonic() < deadline, failure
        await asyncio.sleep(0.02)


async def elicitation(context: Any, params: Any) -> ElicitResult:
    return ElicitResult(action="accept", content={"name": "Ada", "username": "Ada", "email": "ada@example.com"})


async def roots(context: Any) -> ListRootsResult:
    return ListRootsResult(roots=[Root(uri="file:///work", name="work")])


def client(url: str, mode: str, **options: Any) -> ferrymcp.Client:
    callbacks = {
        "sampling_callback": official_peer.sampling,
        "elicitation_callback": elicitation,
        "list_roots_callback": roots,
    }
    return ferrymcp.Client(url, mode=mode, **{**callbacks, **options})


@pytest.fixture(scope="module")
def official() -> Iterator[Served]:
    served = Served(
        [sys.executable, str(HERE / "peers" / "official_server.py"), "http"], r"Uvicorn running on (http://\S+)"
    )
    yield served
    served.stop()


@pytest.fixture(scope="module")
def rust() -> Iterator[Served]:
    if not RUST_EVERYTHING_BIN.exists():
        pytest.skip("build the Rust fixture first: cargo build --release -p ferrymcp-tests")
    served = rust_everything()
    yield served
    served.stop()


@pytest.fixture(scope="module")
def asgi() -> Iterator[Served]:
    served = uvicorn("standalone")
    yield served
    assert served.stop() == 0


@pytest.mark.parametrize("mode", ERAS)
async def test_against_the_official_server(official: Served, mode: str) -> None:
    async with client(f"{official.url}/mcp", mode) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        await official_peer.exercise(c, mode)
        assert (await c.call_tool("no_such_tool", {})).is_error is True  # the official server's answer
        assert (await c.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}


@pytest.mark.parametrize("mode", ERAS)
async def test_against_the_rust_fixture(rust: Served, mode: str) -> None:
    progress: list[float] = []

    async def on_progress(value: float, total: Any, message: Any) -> None:
        progress.append(value)

    async with client(rust.url, mode) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        assert len((await c.list_tools()).tools) > 20
        result = await c.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
        assert result.is_error is not True
        await until(lambda: len(progress) == 3, f"progress: {progress}")
        assert progress == [0, 50, 100]
        elicited = await c.call_tool("test_elicitation", {"message": "Who?"})
        assert '"username":"Ada"' in elicited.content[0].text
        assert (await c.call_tool("test_sampling", {"prompt": "capital?"})).content[0].text == "LLM response: Paris"
        listed = await c.call_tool("test_input_required_result_list_roots", {})
        assert "file:///work" in listed.content[0].text or "1" in listed.content[0].text
        assert (await c.read_resource("test://static-text")).contents[0].text != ""


async def test_headers_and_the_bearer_token_go_with_every_request() -> None:
    served = uvicorn("authenticated")
    try:
        for mode in ERAS:
            async with client(f"{served.url}/mcp", mode, headers={"X-Api-Key": "k"}, bearer_token="secret") as c:
                assert (await c.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
            with pytest.raises(McpError) as refused:
                async with client(f"{served.url}/mcp", mode, bearer_token="wrong"):
                    pass
            assert "401" in str(refused.value)
    finally:
        assert served.stop() == 0


@pytest.mark.parametrize("mode", ERAS)
async def test_progress_and_elicitation_against_the_ferrymcp_asgi_app(asgi: Served, mode: str) -> None:
    progress: list[tuple[float, Any, Any]] = []

    async def on_progress(value: float, total: Any, message: Any) -> None:
        progress.append((value, total, message))

    async with client(f"{asgi.url}/mcp", mode) as c:
        assert (await c.call_tool("count", {"steps": 2}, progress_callback=on_progress)).content[0].text == "counted 2"
        assert (await c.call_tool("ask", {})).content[0].text == "hello Ada"
    await until(lambda: len(progress) == 2, f"progress: {progress}")
    assert progress == [(1, 2, "step 1"), (2, 2, "step 2")]


@pytest.mark.parametrize("mode", ERAS)
async def test_a_timeout_raises_and_cancels_the_tool(asgi: Served, mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "hold"
    async with client(f"{asgi.url}/mcp", mode) as c:
        with pytest.raises(RequestTimeout):
            await c.call_tool("hold", {"marker": str(marker)}, read_timeout_seconds=0.5)
        await until(lambda: marker.exists() and marker.read_text() == "cancelled", "the tool was not cancelled")
        assert (await c.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}


@pytest.mark.parametrize("mode", ERAS)
async def test_cancelling_the_call_cancels_the_tool(asgi: Served, mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "hold"
    async with client(f"{asgi.url}/mcp", mode) as c:
        call = asyncio.ensure_future(c.call_tool("hold", {"marker": str(marker)}))
        await until(lambda: marker.exists(), "the tool did not start")
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await until(lambda: marker.read_text() == "cancelled", "the tool was not cancelled")
        assert (await c.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}


@pytest.mark.parametrize("mode", ERAS)
async def test_a_server_killed_mid_call_fails_the_call(mode: str) -> None:
    if not RUST_EVERYTHING_BIN.exists():
        pytest.skip("build the Rust fixture first: cargo build --release -p ferrymcp-tests")
    served = rust_everything()

    async def kill_on_first_progress(value: float, total: Any, message: Any) -> None:
        served.process.send_signal(signal.SIGKILL)

    try:
        async with client(served.url, mode) as c:
            with pytest.raises(ConnectionClosed) as failed:
                await c.call_tool("test_tool_with_progress", {}, progress_callback=kill_on_first_progress)
            assert failed.value.code == -32000
            # The broken stream makes the client check the server: it is gone, so the
            # connection ends, and every later call fails at once.
            assert "is gone" in str(failed.value)
            with pytest.raises(ConnectionClosed):
                await c.call_tool("test_simple_text", {})
    finally:
        served.process.wait(LIMIT)


async def test_a_url_nobody_listens_on_fails_to_connect() -> None:
    served = uvicorn("standalone")
    url = f"{served.url}/mcp"
    assert served.stop() == 0
    with pytest.raises(ConnectionClosed, match=r"POST http://127\.0\.0\.1:\d+/mcp failed"):
        async with client(url, "auto"):
            pass
