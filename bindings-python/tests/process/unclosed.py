"""A process that leaves ferrymcp objects open at exit, to prove interpreter shutdown
neither hangs nor crashes. `python unclosed.py WAY`, where WAY is one of:

- `client`: an in-memory client entered and used, never exited; `asyncio.run` returns;
- `stdio`: a client of a stdio child process, never closed;
- `in-flight`: a call still running in a tool when `asyncio.run` cancels it;
- `live-loop`: the loop is never closed and the process ends with `sys.exit` while a
  client is open and a call is pending.
"""

import asyncio
import sys

from ferrymcp import Client, MCPServer

mcp = MCPServer("unclosed")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


@mcp.tool()
async def nap() -> str:
    await asyncio.sleep(600)
    return "woke"


async def open_client(target: object) -> Client:
    client = Client(target)
    await client.__aenter__()
    assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    return client


async def client() -> None:
    await open_client(mcp)


async def stdio() -> None:
    await open_client([sys.executable, __file__, "serve"])


async def in_flight() -> None:
    opened = await open_client(mcp)
    call = asyncio.ensure_future(opened.call_tool("nap", {}))
    await asyncio.sleep(0.05)
    assert not call.done()


def live_loop() -> None:
    loop = asyncio.new_event_loop()
    opened = loop.run_until_complete(open_client(mcp))
    loop.create_task(opened.call_tool("nap", {}))
    loop.run_until_complete(asyncio.sleep(0.05))
    sys.exit(0)


if __name__ == "__main__":
    way = sys.argv[1]
    if way == "serve":
        mcp.run()
    elif way == "live-loop":
        live_loop()
    else:
        asyncio.run({"client": client, "stdio": stdio, "in-flight": in_flight}[way]())
