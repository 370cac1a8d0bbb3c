"""`get_logger` and `configure_logging` at the official path
(`mcp.server.mcpserver.utilities.logging`): loggers under the `ferrymcp` name."""

from __future__ import annotations

import logging
from typing import Literal


def get_logger(name: str) -> logging.Logger:
    """A logger named `ferrymcp.<name>` (the official SDK's are `FastMCP.<name>`)."""
    return logging.getLogger(f"ferrymcp.{name}")


def configure_logging(level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO") -> None:
    """Basic logging to stderr at `level` (rich output is not used)."""
    logging.basicConfig(level=level, format="%(message)s")


__all__ = ["configure_logging", "get_logger"]
