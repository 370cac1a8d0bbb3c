"""An extension serving its own request method, written as the official documentation
writes one: params with pydantic `Field(...)` constraints on a subclass of the SDK's
`RequestParams`, and a `MethodBinding` pinned to the 2026-07-28 protocol. Served over
stdio by the official SDK (`official`) or by ferrymcp (`ferrymcp`), for
test_extension_methods.py.
"""

import sys
from collections.abc import Sequence
from typing import Any

from pydantic import Field

if sys.argv[1:] == ["official"]:
    import mcp_types as types
    from mcp.server.extension import Extension, MethodBinding
    from mcp.server.mcpserver import MCPServer
else:
    import ferrymcp.types as types  # type: ignore[no-redef]
    from ferrymcp.server.extension import Extension, MethodBinding  # type: ignore[assignment]
    from ferrymcp.server.mcpserver import MCPServer  # type: ignore[assignment]

METHOD = "com.example/search"


class SearchParams(types.RequestParams):
    query: str
    limit: int = Field(default=2, ge=1, le=5)


class SearchResult(types.Result):
    items: list[str]


async def search(ctx: Any, params: SearchParams) -> SearchResult:
    return SearchResult(items=[f"{params.query}-{n}" for n in range(params.limit)])


class Search(Extension):
    identifier = "com.example/search"

    def methods(self) -> Sequence[MethodBinding]:
        return [MethodBinding(METHOD, SearchParams, search, protocol_versions=frozenset({"2026-07-28"}))]


MCPServer("catalog", extensions=[Search()]).run()
