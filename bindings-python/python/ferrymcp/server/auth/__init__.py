"""OAuth for servers at the official SDK's paths (`mcp.server.auth`, the same in 1.x and 2.x).

ferrymcp's server is an OAuth 2.1 resource server: give `MCPServer` a `token_verifier`
(`provider.TokenVerifier`) and `auth=settings.AuthSettings(...)`, and the engine requires a
bearer token on the MCP endpoint, applies the required scopes and expiry, answers 401/403
with the official challenge, serves the protected resource metadata (RFC 9728), and hands
the accepted token to the tool (`middleware.auth_context.get_access_token()`). The
authorization-server half is served too, by the engine, from an
`OAuthAuthorizationServerProvider`: `MCPServer(auth_server_provider=..., auth=...)` serves
it beside the endpoint, and `routes.create_auth_routes(...)` gives its Starlette routes.
"""
