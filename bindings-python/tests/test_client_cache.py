"""The client's response cache (2026-07-28 `ttlMs`/`cacheScope`) and its `outputSchema`
check of tool results, against servers built with the official SDK in their own
processes (peers/official_cache_server.py, over stdio). A served entry is told from a
fetch by its payload: the server's counter resource answers the next number on every
read, and its tools can be added behind the client's back."""

from __future__ import annotations

import sys
from typing import Any

import pytest

ferrymcp = pytest.importorskip("ferrymcp")
pytest.importorskip("ferrymcp._native")

from conftest import HERE  # noqa: E402

from ferrymcp import Client  # noqa: E402
from ferrymcp.client import CacheConfig  # noqa: E402
from ferrymcp.client.caching import MAX_TTL_MS, InMemoryResponseCacheStore  # noqa: E402
from ferrymcp.client.subscriptions import ToolsListChanged  # noqa: E402

PEER = str(HERE / "peers" / "official_cache_server.py")
CACHE = [sys.executable, PEER, "cache"]
SCHEMA = [sys.executable, PEER, "schema"]


def names(result: Any) -> list[str]:
    return sorted(tool.name for tool in result.tools)


async def read(client: Client, **kwargs: Any) -> str:
    text: str = (await client.read_resource("counter://n", **kwargs)).contents[0].text
    return text


async def test_the_hints_arrive_and_a_fresh_list_is_served_without_a_fetch() -> None:
    async with Client(CACHE) as client:
        assert client.protocol_version == "2026-07-28"
        first = await client.list_tools()
        assert (first.ttl_ms, first.cache_scope) == (60_000, "public")
        added = (await client.call_tool("add_tool", {})).content[0].text
        assert names(await client.list_tools()) == names(first)  # served: the new tool is not in it
        refreshed = await client.list_tools(cache_mode="refresh")
        assert added in names(refreshed)
        assert names(await client.list_tools()) == names(refreshed)  # the refresh replaced the entry


async def test_bypass_neither_reads_nor_writes() -> None:
    async with Client(CACHE) as client:
        first = await client.list_tools()
        added = (await client.call_tool("add_tool", {})).content[0].text
        assert added in names(await client.list_tools(cache_mode="bypass"))
        assert names(await client.list_tools()) == names(first)


async def test_reads_are_cached_by_uri_and_meta_always_reaches_the_server() -> None:
    async with Client(CACHE) as client:
        assert [await read(client), await read(client)] == ["1", "1"]
        assert await read(client, cache_mode="bypass") == "2"
        assert await read(client) == "1"
        assert await read(client, meta={"trace": "x"}) == "3"  # meta: "use" acts as "refresh"
        assert await read(client) == "3"


async def test_an_entry_expires_with_its_ttl_on_the_configured_clock() -> None:
    now = [1_000_000.0]
    async with Client(CACHE, cache=CacheConfig(clock=lambda: now[0])) as client:
        assert [await read(client), await read(client)] == ["1", "1"]
        now[0] += 59.9
        assert await read(client) == "1"
        now[0] += 0.2  # past the server's 60 s
        assert [await read(client), await read(client)] == ["2", "2"]


async def test_cache_none_and_the_session_tier_make_every_call_a_round_trip() -> None:
    async with Client(CACHE, cache=None) as client:
        assert [await read(client), await read(client)] == ["1", "2"]
    async with Client(CACHE) as client:
        assert await read(client) == "1"
        resource = await client.session.read_resource("counter://n")
        assert resource.contents[0].text == "2"  # type: ignore[union-attr]
        assert await read(client) == "1"


async def test_a_legacy_session_ignores_the_hints() -> None:
    async with Client(CACHE, mode="legacy") as client:
        assert client.protocol_version != "2026-07-28"
        assert [await read(client), await read(client)] == ["1", "2"]
    async with Client(CACHE, mode="legacy", cache=CacheConfig(default_ttl_ms=60_000)) as client:
        assert [await read(client), await read(client)] == ["1", "1"]  # the default TTL applies


async def test_list_changed_evicts_the_listing_before_the_watcher_sees_it() -> None:
    async with Client(CACHE) as client:
        first = await client.list_tools()
        async with client.listen(tools_list_changed=True) as subscription:
            added = (await client.call_tool("change_tools", {})).content[0].text
            async for event in subscription:
                assert isinstance(event, ToolsListChanged)
                break
            now = await client.list_tools()
        assert added in names(now) and added not in names(first)


def test_cache_config_is_checked_as_the_official_one_is() -> None:
    assert MAX_TTL_MS == 86_400_000
    with pytest.raises(ValueError, match="custom store requires an explicit partition"):
        CacheConfig(store=InMemoryResponseCacheStore())
    with pytest.raises(ValueError, match="target_id must be a non-empty string"):
        CacheConfig(target_id="")
    with pytest.raises(ValueError, match="default_ttl_ms must be >= 0"):
        CacheConfig(default_ttl_ms=-1)


async def test_a_custom_store_is_refused_by_name() -> None:
    """Without `target_id`, a server that is not a URL is refused at construction (the
    official check); with one, the store itself is refused by name when connecting."""
    config = CacheConfig(store=InMemoryResponseCacheStore(), partition="alice")
    with pytest.raises(ValueError, match=r"^a custom cache store requires CacheConfig.target_id when the server"):
        Client(CACHE, cache=config)
    named = CacheConfig(store=InMemoryResponseCacheStore(), partition="alice", target_id="cache-server")
    with pytest.raises(NotImplementedError, match="CacheConfig.store"):
        async with Client(CACHE, cache=named):
            pass


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_structured_content_is_checked_against_the_output_schema(mode: str) -> None:
    async with Client(SCHEMA, mode=mode) as client:
        # No tools/list first: the client lists the tools to learn the schema.
        assert (await client.call_tool("good", {})).structured_content == {"n": 1}
        with pytest.raises(RuntimeError, match=r"^Invalid structured content returned by tool bad: "):
            await client.call_tool("bad", {})
        with pytest.raises(
            RuntimeError, match=r"^Tool missing has an output schema but did not return structured content$"
        ):
            await client.call_tool("missing", {})
        assert (await client.call_tool("failing", {})).is_error  # an error result is not checked
        assert (await client.call_tool("plain", {})).structured_content is None
