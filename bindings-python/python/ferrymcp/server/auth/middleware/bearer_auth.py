"""The official `mcp.server.auth.middleware.bearer_auth` names user code imports.

ferrymcp's engine checks bearer tokens itself (`MCPServer(token_verifier=..., auth=...)`),
so there is no Starlette backend here: `AuthenticatedUser` is the holder of an accepted
token that `auth_context_var` carries (see `auth_context`).
"""

from __future__ import annotations

from ferrymcp.server.auth.middleware.auth_context import AuthenticatedUser

__all__ = ["AuthenticatedUser"]
