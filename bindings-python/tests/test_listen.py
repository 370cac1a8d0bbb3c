"""`Client.listen()` (`subscriptions/listen`, 2026-07-28) against ferrymcp's Python
conformance fixture in its own process, over stdio and Streamable HTTP: entering waits for
the acknowledgement, a real change (the fixture's `test_trigger_tool_change` tool) comes
out as a typed event, leaving ends the subscription; an older revision is refused with the
official `ListenNotSupportedError`.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

import pytest

ferrymcp = pytest.importorskip("ferrymcp")
pytest.importorskip("ferrymcp._native")

from conftest import HERE, PYTHON_EVERYTHING  # noqa: E402
from serving import Served  # noqa: E402

from ferrymcp.client.subscriptions import (  # noqa: E402
    ListenNotSupportedError,
    PromptsListChanged,
    ToolsListChanged,
)

STDIO = [sys.executable, str(PYTHON_EVERYTHING), "--transport", "stdio"]


@pytest.fixture(scope="module")
def http() -> Iterator[Served]:
    served = Served(
        [sys.executable, str(PYTHON_EVERYTHING), "--transport", "http", "--port", "0"], r"listening on (\S+)"
    )
    yield served
    served.stop()


def target(transport: str, request: Any) -> Any:
    if transport == "http":
        return request.getfixturevalue("http").url
    return STDIO


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_listen_yields_the_change_then_ends_with_the_block(transport: str, request: Any) -> None:
    seen: list[str] = []

    async def on_message(message: Any) -> None:
        seen.append(type(message).__name__)

    async with ferrymcp.Client(target(transport, request), mode="2026-07-28", message_handler=on_message) as client:
        async with client.listen(tools_list_changed=True, prompts_list_changed=True) as sub:
            assert sub.honored.tools_list_changed is True
            assert sub.honored.prompts_list_changed is True
            assert sub.honored.resources_list_changed is None
            assert sub.subscription_id is not None
            await client.call_tool("test_trigger_tool_change", {})
            events = aiter(sub)
            assert await asyncio.wait_for(anext(events), 20) == ToolsListChanged()
            await client.call_tool("test_trigger_prompt_change", {})
            assert await asyncio.wait_for(anext(events), 20) == PromptsListChanged()
        # The notifications reached message_handler too, as the notifications they are.
        assert "ToolListChangedNotification" in seen, seen
        # Left: the subscription is over, so the iterator ends at once.
        with pytest.raises(StopAsyncIteration):
            await anext(events)


async def test_listen_against_the_official_server() -> None:
    """The official SDK's server (PyPI `mcp`) as the peer over stdio: its
    `notify_tools_changed()` reaches ferrymcp's subscription."""
    pytest.importorskip("mcp")
    official = [sys.executable, str(HERE / "peers" / "official_server.py")]
    async with ferrymcp.Client(official, mode="2026-07-28") as client:
        async with client.listen(tools_list_changed=True) as sub:
            assert sub.honored.tools_list_changed is True
            await client.call_tool("change_tools", {})
            assert await asyncio.wait_for(anext(aiter(sub)), 20) == ToolsListChanged()


async def test_listen_on_a_legacy_connection_is_refused() -> None:
    async with ferrymcp.Client(STDIO, mode="legacy") as client:
        with pytest.raises(ListenNotSupportedError, match="2026-07-28") as raised:
            async with client.listen(tools_list_changed=True):
                pass
        assert raised.value.negotiated_version == "2025-11-25"
