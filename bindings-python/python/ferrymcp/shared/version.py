"""The protocol revisions (`mcp.shared.version`), as the engine speaks them."""

from ferrymcp._version import SUPPORTED_PROTOCOL_VERSIONS
from ferrymcp.types import LATEST_PROTOCOL_VERSION

__all__ = ["LATEST_PROTOCOL_VERSION", "SUPPORTED_PROTOCOL_VERSIONS"]
