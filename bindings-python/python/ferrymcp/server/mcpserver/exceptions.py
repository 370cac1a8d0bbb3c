"""The exceptions of `MCPServer` at the official paths (`mcp.server.mcpserver.exceptions`,
and 1.x `mcp.server.fastmcp.exceptions`), with the official class tree.

What the engine makes of each when a handler raises it: `ToolError` (or `ResourceError`)
from a tool becomes an `isError` result carrying its text; any other exception from a tool
is a crash, and `MCPServer`'s result says only `Error executing tool NAME` (its text stays
on the server, as the official 2.x `UnexpectedToolError`; 1.x's `FastMCP` sends the text);
`ResourceNotFoundError`
from a resource function is the engine's "resource not found" answer for the request's
era (it subclasses `ferrymcp.exceptions.ResourceNotFound`, which the engine recognises);
any other exception from a resource or prompt is an internal error. `InvalidSignature`
is raised at declaration time for a function that cannot be a tool.
"""

from __future__ import annotations

from ferrymcp.exceptions import ResourceNotFound


class MCPServerError(Exception):
    """Base class of the server's errors."""


FastMCPError = MCPServerError
"""The 1.x name of `MCPServerError`."""


class ValidationError(MCPServerError):
    """A value failed validation (1.x)."""


class ResourceError(MCPServerError):
    """A resource operation failed."""


class ResourceNotFoundError(ResourceError, ResourceNotFound):
    """Raise from a resource (template) function when the requested instance does not
    exist: the client gets the not-found error of its protocol era, the message given
    here as its text."""

    def __init__(self, message: str = "", uri: str = "") -> None:
        Exception.__init__(self, message)
        self.uri = uri
        self.detail = message or None


class UnexpectedResourceError(ResourceError):
    """A resource failed with something other than `ResourceError` or `MCPError` (a
    crash); the engine treats it as one."""


class ToolError(MCPServerError):
    """A tool failed: the client gets an `isError` result with this text."""


class UnexpectedToolError(ToolError):
    """A tool failed with something other than `ToolError`, `ResourceError` or `MCPError`
    (a crash): `MCPServer`'s result says only `Error executing tool NAME`."""


class InvalidSignature(Exception):
    """A function's signature cannot be used by the server."""


__all__ = [
    "FastMCPError",
    "InvalidSignature",
    "MCPServerError",
    "ResourceError",
    "ResourceNotFoundError",
    "ToolError",
    "UnexpectedResourceError",
    "UnexpectedToolError",
    "ValidationError",
]
