"""A process that uses ferrymcp, forks, and uses it again on both sides of the fork; exits
0 only if every call on both sides gave the right answer.

`python fork_child.py` makes in-memory calls and stdio calls (to itself started with
`serve`) in the parent, forks, repeats them in the child, which exits through normal
interpreter shutdown, then repeats them in the parent. It forks between event loops, as
asyncio requires: a forked child cannot go on running its parent's loop.
"""

import asyncio
import os
import sys

from ferrymcp import Client, MCPServer

mcp = MCPServer("forked")


@mcp.tool()
def pid() -> int:
    return os.getpid()


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


async def in_memory() -> bool:
    async with Client(mcp) as client:
        result = await client.call_tool("pid", {})
        return result.structured_content == {"result": os.getpid()}


async def over_stdio() -> bool:
    async with Client([sys.executable, __file__, "serve"]) as client:
        result = await client.call_tool("add", {"a": 1, "b": 2})
        return result.structured_content == {"result": 3}


async def both() -> bool:
    return await in_memory() and await over_stdio()


def main() -> int:
    if not asyncio.run(both()):
        return 10
    child = os.fork()
    if child == 0:
        return 0 if asyncio.run(both()) else 20
    _, status = os.waitpid(child, 0)
    if not asyncio.run(both()):
        return 30
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        mcp.run()
    else:
        sys.exit(main())
