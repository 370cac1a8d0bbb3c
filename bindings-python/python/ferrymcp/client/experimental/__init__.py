"""Experimental client features at the official path (`mcp.client.experimental`): tasks."""

from ferrymcp.client.experimental.tasks import ExperimentalClientFeatures

__all__ = ["ExperimentalClientFeatures"]
