"""Experimental shared features at the official path (`mcp.shared.experimental`): tasks."""
