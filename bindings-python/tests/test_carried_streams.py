"""Streams a program made, carried to and from the engine: the official idiom of two anyio
memory streams of `SessionMessage` handed to `ClientSession(read, write)` or
`Server.run(read, write, options)`. The peers are real: the official SDK's own server and
ClientSession on the other end of the streams, or ferrymcp on both ends; and a transport
of the test's own that carries the messages over a real TCP socket.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("ferrymcp._native")
anyio = pytest.importorskip("anyio")
mcp = pytest.importorskip("mcp")

from ferrymcp.server.mcpserver import Context  # noqa: E402  (tool signatures name it)


def lowlevel(sdk: str) -> Any:
    """The same low-level server, written against the official SDK or ferrymcp."""
    if sdk == "official":
        from mcp.server import Server
        from mcp.types import CallToolResult, ListToolsResult, TextContent, Tool
    else:
        from ferrymcp.server import Server  # type: ignore[assignment]
        from ferrymcp.types import CallToolResult, ListToolsResult, TextContent, Tool  # type: ignore[assignment]

    async def list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[Tool(name="echo", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: Any) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(params.arguments))])

    return Server(f"{sdk}-lowlevel", on_list_tools=list_tools, on_call_tool=call_tool)


def ferry_mcpserver() -> Any:
    from ferrymcp.server.mcpserver import MCPServer

    server = MCPServer("ferry-mcpserver")

    @server.tool()
    async def add(a: int, b: int, ctx: Context) -> str:
        await ctx.info(f"adding {a} and {b}")
        return str(a + b)

    @server.tool()
    async def wait(ms: int) -> str:
        await asyncio.sleep(ms / 1000)
        return f"waited {ms}"

    return server


def streams() -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """(client_read, client_write), (server_read, server_write)."""
    to_client_send, to_client_recv = anyio.create_memory_object_stream(8)
    to_server_send, to_server_recv = anyio.create_memory_object_stream(8)
    return (to_client_recv, to_server_send), (to_server_recv, to_client_send)


async def run_then_set(server: Any, read: Any, write: Any, done: asyncio.Event) -> None:
    """Runs a low-level `server` on the stream pair, then sets `done`."""
    await server.run(read, write, server.create_initialization_options())
    done.set()


async def test_a_ferrymcp_session_over_streams_to_the_official_server() -> None:
    from ferrymcp.client.session import ClientSession

    server = lowlevel("official")
    (client_read, client_write), (server_read, server_write) = streams()
    ran = asyncio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(run_then_set, server, server_read, server_write, ran)
        async with ClientSession(client_read, client_write) as session:
            init = await session.initialize()
            assert init.server_info.name == "official-lowlevel"
            assert session.initialize_result == init, "the 1.x session speaks the legacy era"
            assert [t.name for t in (await session.list_tools()).tools] == ["echo"]
            result = await session.call_tool("echo", {"b": 1, "a": [2, "x"]})
            assert result.content[0].text == '{"b": 1, "a": [2, "x"]}', "key order survives both crossings"
        # Leaving the session closed its write stream: the official server's run() returns.
        with anyio.fail_after(5):
            await ran.wait()


async def test_the_official_session_over_streams_to_a_ferrymcp_server() -> None:
    server = lowlevel("ferrymcp")
    (client_read, client_write), (server_read, server_write) = streams()
    ran = asyncio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(run_then_set, server, server_read, server_write, ran)
        async with mcp.ClientSession(client_read, client_write) as session:
            init = await session.initialize()
            assert init.server_info.name == "ferrymcp-lowlevel"
            assert [t.name for t in (await session.list_tools()).tools] == ["echo"]
            result = await session.call_tool("echo", {"q": "Dune"})
            assert result.content[0].text == '{"q": "Dune"}'
        await client_write.aclose()
        with anyio.fail_after(5):
            await ran.wait()  # the end of its read stream ends Server.run


async def test_ferrymcp_on_both_ends_logs_arrive_before_the_answer() -> None:
    from ferrymcp.shared.memory import create_connected_server_and_client_session

    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params.data)

    async with create_connected_server_and_client_session(ferry_mcpserver(), logging_callback=on_log) as session:
        for n in range(20):
            result = await session.call_tool("add", {"a": n, "b": 1})
            assert result.content[0].text == str(n + 1)
            assert logs[-1] == f"adding {n} and 1", "the log sent before the answer has been handled"
        answers = await asyncio.gather(*(session.call_tool("add", {"a": n, "b": 100}) for n in range(100)))
        assert [a.content[0].text for a in answers] == [str(n + 100) for n in range(100)]


async def test_a_transport_of_the_programs_own_over_a_real_socket() -> None:
    """The server side's streams are fed from a TCP socket by the test's own transport task
    (newline-delimited JSON, as a user's WebSocket or socket transport would be)."""
    from ferrymcp.client.session import ClientSession
    from ferrymcp.shared.message import SessionMessage
    from ferrymcp.types import jsonrpc_message_adapter

    server = ferry_mcpserver()

    async def socket_transport(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, read_send: Any, write_recv: Any
    ) -> None:
        async def pump_in() -> None:
            async with read_send:
                while line := await reader.readline():
                    await read_send.send(SessionMessage(jsonrpc_message_adapter.validate_json(line)))

        async def pump_out() -> None:
            async with write_recv:
                async for item in write_recv:
                    writer.write(item.message.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n")
                    await writer.drain()
            writer.close()

        await asyncio.gather(pump_in(), pump_out())

    served: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        read_send, read_recv = anyio.create_memory_object_stream(8)
        write_send, write_recv = anyio.create_memory_object_stream(8)
        transport = asyncio.ensure_future(socket_transport(reader, writer, read_send, write_recv))
        await server.run_streams_async(read_recv, write_send)
        await transport
        served.set_result(True)

    listener = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    # The client side: the same kind of transport, by hand, in front of a ClientSession.
    (client_read, client_write), (to_socket_recv, from_socket_send) = streams()
    transport = asyncio.ensure_future(socket_transport(reader, writer, from_socket_send, to_socket_recv))
    async with ClientSession(client_read, client_write) as session:
        await session.initialize()
        results = await asyncio.gather(
            session.call_tool("wait", {"ms": 30}), session.call_tool("add", {"a": 1, "b": 2})
        )
        assert [r.content[0].text for r in results] == ["waited 30", "3"]
    with anyio.fail_after(5):
        await transport
        assert await served, "the client's end closed the socket and the server's run ended"
    listener.close()
    await listener.wait_closed()


async def test_streams_that_are_not_a_pair_are_refused() -> None:
    from ferrymcp.client.session import ClientSession

    with pytest.raises(TypeError, match="SessionMessage"):
        ClientSession(object(), object())
    with pytest.raises(TypeError, match="SessionMessage"):
        await lowlevel("ferrymcp").run(object(), object())


async def test_client_notifications_reach_the_lowlevel_servers_handlers() -> None:
    """The official session's `notifications/roots/list_changed` reaches `on_roots_list_changed`,
    and a notification of the application's own reaches `add_notification_handler`'s handler."""
    from ferrymcp.server import Server
    from ferrymcp.types import NotificationParams

    seen: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    async def roots_changed(ctx: Any, params: Any) -> None:
        await seen.put((ctx.method, params))

    def custom(ctx: Any, params: Any) -> None:
        seen.put_nowait((ctx.method, params.model_dump(by_alias=True, exclude_none=True)))

    server = Server("notified", on_roots_list_changed=roots_changed)
    server.add_notification_handler("com.example/poke", NotificationParams, custom)
    (client_read, client_write), (server_read, server_write) = streams()
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.run, server_read, server_write, server.create_initialization_options())
        async with mcp.ClientSession(client_read, client_write) as session:
            await session.initialize()
            await session.send_roots_list_changed()
            method, params = await asyncio.wait_for(seen.get(), 5)
            assert method == "notifications/roots/list_changed" and isinstance(params, NotificationParams)
            await session.send_notification(_Poke())  # type: ignore[arg-type]
            assert await asyncio.wait_for(seen.get(), 5) == ("com.example/poke", {"_meta": {"n": 1}})
        await client_write.aclose()
    with pytest.raises(ValueError, match="notifications/progress"):
        server.add_notification_handler("notifications/progress", NotificationParams, custom)
        server._native_server()


class _Poke:
    method = "com.example/poke"
    params = {"_meta": {"n": 1}}

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return {"method": self.method, "params": self.params}


async def test_ferrymcps_session_sends_roots_list_changed_to_the_official_server() -> None:
    """`ClientSession.send_roots_list_changed()` reaches the official low-level server's
    `on_roots_list_changed`."""
    from mcp.server import Server

    from ferrymcp.client.session import ClientSession

    seen: asyncio.Queue[str] = asyncio.Queue()

    async def roots_changed(ctx: Any, params: Any) -> None:
        await seen.put("roots changed")

    server = Server("official-roots", on_roots_list_changed=roots_changed)
    (client_read, client_write), (server_read, server_write) = streams()
    ran = asyncio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(run_then_set, server, server_read, server_write, ran)
        async with ClientSession(client_read, client_write) as session:
            await session.initialize()
            await session.send_roots_list_changed()
            assert await asyncio.wait_for(seen.get(), 5) == "roots changed"
        with anyio.fail_after(5):
            await ran.wait()
