"""Extensions of the OAuth client at the official path (`mcp.client.auth.extensions`)."""
