"""The server side at the official SDK's paths: `from ferrymcp.server import MCPServer`,
and the low-level `Server` with its `ServerRequestContext` and `NotificationOptions`
(loaded on first use, so `import ferrymcp` does not pay for them)."""

from typing import Any

from ferrymcp.server.mcpserver import CacheHint, MCPServer

_LAZY = {
    "Server": "ferrymcp.server.lowlevel",
    "NotificationOptions": "ferrymcp.server.lowlevel",
    "ServerRequestContext": "ferrymcp.server.context",
    "InitializationOptions": "ferrymcp.server.models",
    # 1.x exported FastMCP here too (`from mcp.server import FastMCP`).
    "FastMCP": "ferrymcp.server.fastmcp",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CacheHint",
    "FastMCP",
    "InitializationOptions",
    "MCPServer",
    "NotificationOptions",
    "Server",
    "ServerRequestContext",
]
