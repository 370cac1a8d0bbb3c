"""`get_logger` and `configure_logging` at the official path
(`mcp.server.mcpserver.utilities.logging`)."""

from __future__ import annotations

import logging
from typing import Literal


def get_logger(name: str) -> logging.Logger:
    """The logger named `name`, as the official one (`get_logger(__name__)`: the module's)."""
    return logging.getLogger(name)


def configure_logging(level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO") -> None:
    """Basic logging to stderr at `level` (rich output is not used)."""
    logging.basicConfig(level=level, format="%(message)s")


__all__ = ["configure_logging", "get_logger"]
