"""Client result claims (`ResultClaim`, the official 2.x client's): an extension of the
client's claims a `tools/call` result shape by its `resultType`; ferrymcp's `Client`
parses it with the claim's model and finishes it with the claim's `resolve`, or hands it
over with `session.call_tool(..., allow_claimed=True)`. The engine decides what the
protocol says of claims (core/src/client/claims.rs): a claim is active at 2026-07-28
only, and an extension whose claims are all inactive is not declared, so the legacy
handshake leaves it out.

The server is a real child over stdio (peers/claims_server.py), written once against the
official API and run on the official SDK (PyPI `mcp`) and on ferrymcp; the official
client is the peer of ferrymcp's server too.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Literal

import pytest

pytest.importorskip("ferrymcp._native")
mcp = pytest.importorskip("mcp")

from serving import HERE  # noqa: E402

import ferrymcp  # noqa: E402
import ferrymcp.types as types  # noqa: E402
from ferrymcp.client import ClaimContext, ClientExtension, ResultClaim, UnexpectedClaimedResult, advertise  # noqa: E402

PEER = HERE / "peers" / "claims_server.py"
TICKETS = "com.example/tickets"
PLAIN = "com.example/plain"


class TicketResult(types.Result):
    result_type: Literal["ticket"] = "ticket"
    ticket_code: str


class Tickets(ClientExtension):
    identifier = TICKETS

    def __init__(self) -> None:
        self.resolved: list[str] = []

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return [ResultClaim(result_type="ticket", model=TicketResult, resolve=self._collect)]

    async def _collect(self, claimed: TicketResult, ctx: ClaimContext) -> types.CallToolResult:
        self.resolved.append(f"{ctx.tool_name}:{claimed.ticket_code}")
        return await ctx.session.call_tool("collect", {"code": claimed.ticket_code})


def server(sdk: str) -> ferrymcp.StdioServerParameters:
    return ferrymcp.StdioServerParameters(command=sys.executable, args=[str(PEER), sdk])


def text(result: Any) -> str:
    return str(result.content[0].text)


SDKS = ["official", "ferrymcp"]


@pytest.mark.parametrize("sdk", SDKS)
async def test_a_claimed_result_is_finished_by_the_claims_resolver(sdk: str) -> None:
    tickets = Tickets()
    async with ferrymcp.Client(server(sdk), extensions=[tickets]) as client:
        assert client.protocol_version == "2026-07-28"
        result = await client.call_tool("reserve", {"seat": "12A"})
        assert isinstance(result, types.CallToolResult)
        assert text(result) == "seat for T-12A"
        assert tickets.resolved == ["reserve:T-12A"]
        # The escape hatch: the claimed shape itself, parsed by the claim's model.
        claimed = await client.session.call_tool("reserve", {"seat": "3C"}, allow_claimed=True)
        assert isinstance(claimed, TicketResult)
        assert claimed.ticket_code == "T-3C"
        with pytest.raises(UnexpectedClaimedResult) as caught:
            await client.session.call_tool("reserve", {"seat": "4D"})
        assert isinstance(caught.value.result, TicketResult)
        assert caught.value.result.ticket_code == "T-4D"


@pytest.mark.parametrize("sdk", SDKS)
async def test_the_legacy_handshake_leaves_a_claim_bearing_extension_out(sdk: str) -> None:
    async with ferrymcp.Client(server(sdk), mode="legacy", extensions=[Tickets(), advertise(PLAIN)]) as client:
        assert client.protocol_version != "2026-07-28"
        # Declared: the extension without claims; not the one whose claims cannot be
        # delivered here, which the server's gate then refuses.
        assert text(await client.call_tool("plain")) == "declared"
        with pytest.raises(ferrymcp.McpError) as caught:
            await client.call_tool("reserve", {"seat": "1A"})
        assert caught.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY


async def test_a_claim_limited_to_named_revisions_is_active_there_only() -> None:
    class Later(Tickets):
        def claims(self) -> Sequence[ResultClaim[Any]]:
            return [
                ResultClaim(
                    result_type="ticket",
                    model=TicketResult,
                    resolve=self._collect,
                    protocol_versions=frozenset({"2026-07-28"}),
                )
            ]

    later = Later()
    async with ferrymcp.Client(server("official"), extensions=[later, advertise(PLAIN)]) as client:
        assert text(await client.call_tool("plain")) == "declared"
        assert text(await client.call_tool("reserve", {"seat": "5E"})) == "seat for T-5E"
    assert later.resolved == ["reserve:T-5E"]
    async with ferrymcp.Client(server("official"), mode="legacy", extensions=[Later()]) as client:
        with pytest.raises(ferrymcp.McpError) as caught:
            await client.call_tool("reserve", {"seat": "1A"})
        assert caught.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY


async def test_the_official_client_gets_the_claimed_shape_from_ferrymcps_server() -> None:
    from mcp.client import ClaimContext as OfficialClaimContext
    from mcp.client import ClientExtension as OfficialExtension
    from mcp.client import ResultClaim as OfficialClaim

    class OfficialTicket(mcp.types.Result):
        result_type: Literal["ticket"] = "ticket"
        ticket_code: str

    class OfficialTickets(OfficialExtension):
        identifier = TICKETS

        def claims(self) -> Sequence[Any]:
            return [OfficialClaim(result_type="ticket", model=OfficialTicket, resolve=self._collect)]

        async def _collect(self, claimed: OfficialTicket, ctx: OfficialClaimContext) -> Any:
            return await ctx.session.call_tool("collect", {"code": claimed.ticket_code})

    params = mcp.StdioServerParameters(command=sys.executable, args=[str(PEER), "ferrymcp"])
    async with mcp.Client(params, extensions=[OfficialTickets()]) as client:
        result = await client.call_tool("reserve", {"seat": "9F"})
        assert result.content[0].text == "seat for T-9F"
        claimed = await client.session.call_tool("reserve", {"seat": "2B"}, allow_claimed=True)
        assert isinstance(claimed, OfficialTicket) and claimed.ticket_code == "T-2B"


def test_claims_are_checked_as_they_are_made() -> None:
    async def resolve(claimed: Any, ctx: ClaimContext) -> types.CallToolResult:
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"resultType 'input_required' is core protocol vocabulary"):
        ResultClaim(result_type="input_required", model=TicketResult, resolve=resolve)
    with pytest.raises(ValueError, match=r"are not modern protocol revisions"):
        ResultClaim(
            result_type="ticket", model=TicketResult, resolve=resolve, protocol_versions=frozenset({"2025-11-25"})
        )
    with pytest.raises(ValueError, match=r"TicketResult.result_type must be Literal\['other'\]"):
        ResultClaim(result_type="other", model=TicketResult, resolve=resolve)
    with pytest.raises(ValueError, match="must not subclass core result types"):
        ResultClaim(result_type="ticket", model=types.CallToolResult, resolve=resolve)

    class Twice(ClientExtension):
        identifier = "com.example/twice"

        def claims(self) -> Sequence[ResultClaim[Any]]:
            return [ResultClaim(result_type="ticket", model=TicketResult, resolve=resolve)]

    with pytest.raises(ValueError, match=r"extensions 'com.example/tickets' and 'com.example/twice' both claim"):
        ferrymcp.Client(server("ferrymcp"), extensions=[Tickets(), Twice()])
