"""The official `mcp.server.auth.middleware` package: `auth_context.get_access_token()`."""
