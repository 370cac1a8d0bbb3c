"""One `MCPServer` whose tools talk to the client through the official `ServerSession`
API (`ctx.session`, `ctx.request_context.session`): `send_notification` on the request's
way back and on the session's, `send_elicit_complete`, `send_ping`, `send_request` (with
and without `request_read_timeout_seconds`, and to a client that did not declare the
capability) and `can_send_request`. `session_server.py
<sdk>`, `sdk` `official` (the `mcp` package) or `ferrymcp` (the same code on ferrymcp's
modules); test_server_session.py serves both over stdio to the official client in both
eras and compares what the client sees.
"""

from __future__ import annotations

import sys

if sys.argv[1] == "official":
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.shared.exceptions import MCPError, NoBackChannelError
    from mcp.types import (
        ListRootsRequest,
        ListRootsResult,
        LoggingMessageNotification,
        LoggingMessageNotificationParams,
        SamplingMessage,
        TextContent,
    )
else:
    from ferrymcp.server.mcpserver import Context, MCPServer
    from ferrymcp.shared.exceptions import MCPError, NoBackChannelError
    from ferrymcp.types import (
        ListRootsRequest,
        ListRootsResult,
        LoggingMessageNotification,
        LoggingMessageNotificationParams,
        SamplingMessage,
        TextContent,
    )

mcp = MCPServer("session-peer")


def _log(text: str) -> LoggingMessageNotification:
    return LoggingMessageNotification(params=LoggingMessageNotificationParams(level="info", logger="peer", data=text))


@mcp.tool()
async def notify(ctx: Context) -> str:
    session = ctx.request_context.session
    await session.send_notification(_log("on the request"), related_request_id=ctx.request_context.request_id)
    await session.send_elicit_complete("elicitation-7", related_request_id=ctx.request_context.request_id)
    return "sent"


@mcp.tool()
async def notify_session(ctx: Context) -> str:
    await ctx.session.send_notification(_log("on the session"))
    return "sent"


@mcp.tool()
async def ask(ctx: Context) -> str:
    session = ctx.session
    try:
        await session.send_ping()
        roots = await session.send_request(ListRootsRequest(), ListRootsResult)
    except NoBackChannelError as error:
        return f"no back-channel ({error.error.code}): {error.error.message} can_send={session.can_send_request}"
    return f"pong; roots={[str(root.uri) for root in roots.roots]} can_send={session.can_send_request}"


@mcp.tool()
async def ask_roots(ctx: Context) -> str:
    """`send_request` whatever the client declared: sent on a legacy session as it is (the
    client answers what it cannot do), refused at 2026-07-28."""
    try:
        roots = await ctx.session.send_request(ListRootsRequest(), ListRootsResult)
    except MCPError as error:
        kind = "NoBackChannelError" if isinstance(error, NoBackChannelError) else "MCPError"
        return f"{kind} {error.error.code}: {error.error.message}"
    return f"roots={[str(root.uri) for root in roots.roots]}"


@mcp.tool()
async def sample_unguarded(ctx: Context) -> str:
    """`create_message` left to fail the call (the official documentation's deprecation
    page): at 2026-07-28 the call fails with the no-back-channel error."""
    await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text="hi"))], max_tokens=8
    )
    return "sampled"


@mcp.tool()
async def ask_with_timeout(seconds: float, ctx: Context) -> str:
    """Asks for roots (the test's client never answers) waiting at most `seconds`."""
    session = ctx.session
    try:
        await session.send_request(ListRootsRequest(), ListRootsResult, request_read_timeout_seconds=seconds)
    except MCPError as error:
        return f"error {error.error.code}"
    return "answered"


if __name__ == "__main__":
    mcp.run()
