"""What a server sent before its answer has been handled when the call returns: the
progress, logging and message callbacks (async ones included, which take a loop turn or
more) have all run, as with the official session. Over stdio and Streamable HTTP, both
eras, against the Rust conformance fixture (a real process; scripts/test.sh builds it
first), 20 calls each, with no waiting in the test between a call and its assertions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

ferrymcp = pytest.importorskip("ferrymcp")
pytest.importorskip("ferrymcp._native")

from serving import RUST_EVERYTHING_BIN, Served, rust_everything  # noqa: E402

ERAS = ["legacy", "2026-07-28"]
CALLS = 20


@pytest.fixture(scope="module")
def http() -> Iterator[Served]:
    if not RUST_EVERYTHING_BIN.exists():
        pytest.skip("target/release/ferrymcp-everything is not built")
    served = rust_everything()
    yield served
    served.stop()


def target(transport: str, http: Served | None) -> Any:
    if transport == "http":
        assert http is not None
        return http.url
    return [str(RUST_EVERYTHING_BIN), "--transport", "stdio"]


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_callbacks_have_run_when_the_call_returns(transport: str, mode: str, request: Any) -> None:
    served = request.getfixturevalue("http") if transport == "http" else None
    if transport == "stdio" and not RUST_EVERYTHING_BIN.exists():
        pytest.skip("target/release/ferrymcp-everything is not built")
    logs: list[Any] = []
    messages: list[str] = []
    progress: list[float] = []

    async def on_log(params: Any) -> None:
        await asyncio.sleep(0)  # an async callback that takes loop turns
        await asyncio.sleep(0)
        logs.append(params.data)

    async def on_message(message: Any) -> None:
        await asyncio.sleep(0)
        messages.append(type(message).__name__)

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        await asyncio.sleep(0)
        progress.append(value)

    # The log level: `logging/setLevel` in the legacy era, `_meta` of each request in 2026-07-28.
    level = {"log_level": "debug"} if mode != "legacy" else {}
    async with ferrymcp.Client(
        target(transport, served), mode=mode, logging_callback=on_log, message_handler=on_message, **level
    ) as c:
        if mode == "legacy":
            await c.set_logging_level("debug")
        for n in range(1, CALLS + 1):
            await c.call_tool("test_tool_with_logging", {})
            assert len(logs) == 3 * n, f"call {n}: {logs[-3:]}"
            assert messages.count("LoggingMessageNotification") == 3 * n
            await c.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
            assert progress[-3:] == [0, 50, 100] and len(progress) == 3 * n, f"call {n}: {progress[-6:]}"
