"""The error classes at the official path (`mcp.shared.exceptions`): the same classes as
`ferrymcp.exceptions`, under their 2.x and 1.x names."""

from ferrymcp.exceptions import (
    InputRequiredRoundsExceededError,
    MCPDeprecationWarning,
    McpError,
    NoBackChannelError,
    UrlElicitationRequiredError,
)

MCPError = McpError

__all__ = [
    "InputRequiredRoundsExceededError",
    "MCPDeprecationWarning",
    "MCPError",
    "McpError",
    "NoBackChannelError",
    "UrlElicitationRequiredError",
]
