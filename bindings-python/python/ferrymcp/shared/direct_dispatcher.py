"""The official `mcp.shared.direct_dispatcher` (an in-process peer pair with no JSON-RPC
framing, what the official `Client(server)` runs on).

ferrymcp has no such dispatcher: `Client(server)` connects to the server in memory through
the engine (`ferrymcp.client.Client`), and `ferrymcp.server.runner.serve_one` answers one
request of a transport entry of the application's own. Both names raise
`NotImplementedError` saying so."""

from __future__ import annotations

from typing import Any

__all__ = ["DirectDispatcher", "create_direct_dispatcher_pair"]

_REFUSED = (
    "is not in ferrymcp: Client(server) serves in memory through the engine, and "
    "ferrymcp.server.runner.serve_one answers one request of a transport of the application's own"
)


class DirectDispatcher:
    """Refused by name (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"DirectDispatcher {_REFUSED}")


def create_direct_dispatcher_pair(*args: Any, **kwargs: Any) -> Any:
    """Refused by name (see the module doc)."""
    raise NotImplementedError(f"create_direct_dispatcher_pair {_REFUSED}")
