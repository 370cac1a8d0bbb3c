"""`InitializationOptions` (`mcp.server.models`): what a low-level server declares in its
handshake, as `Server.create_initialization_options()` builds it and `Server.run()` takes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class InitializationOptions:
    server_name: str
    server_version: str
    capabilities: Any
    instructions: str | None = None
    website_url: str | None = None
    icons: list[Any] | None = None


__all__ = ["InitializationOptions"]
