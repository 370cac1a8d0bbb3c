"""`mcp.shared.tool_name_validation` at ferrymcp's path: the 2025-11-25 tool-naming rule
(SEP-986, a SHOULD: 1 to 128 characters of `A-Z a-z 0-9 _ - .`). The engine checks a name
and words the findings as the official SDK does; this module logs them the official way.
`MCPServer` and `FastMCP` check every tool name they register, as the official ones do.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from ferrymcp import _native

logger = logging.getLogger(__name__)

#: The rule as a pattern (the engine's check is the one applied).
TOOL_NAME_REGEX = re.compile(r"^[A-Za-z0-9._-]{1,128}$")

#: Where the rule is written.
SEP_986_URL = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names"


@dataclass
class ToolNameValidationResult:
    """Whether a name follows the rule, and every finding."""

    is_valid: bool
    warnings: list[str] = field(default_factory=lambda: [])


def validate_tool_name(name: str) -> ToolNameValidationResult:
    """Checks `name` against the rule (a name outside it still works)."""
    is_valid, warnings = _native.check_tool_name(name)
    return ToolNameValidationResult(is_valid=is_valid, warnings=warnings)


def issue_tool_name_warning(name: str, warnings: list[str]) -> None:
    """Logs `warnings` about `name` in the official words (nothing when there are none)."""
    if not warnings:
        return
    logger.warning(f'Tool name validation warning for "{name}":')
    for warning in warnings:
        logger.warning(f"  - {warning}")
    logger.warning("Tool registration will proceed, but this may cause compatibility issues.")
    logger.warning("Consider updating the tool name to conform to the MCP tool naming standard.")
    logger.warning(f"See SEP-986 ({SEP_986_URL}) for more details.")


def validate_and_warn_tool_name(name: str) -> bool:
    """Checks `name`, logs what was found, and says whether it follows the rule."""
    result = validate_tool_name(name)
    issue_tool_name_warning(name, result.warnings)
    return result.is_valid


__all__ = [
    "SEP_986_URL",
    "TOOL_NAME_REGEX",
    "ToolNameValidationResult",
    "issue_tool_name_warning",
    "validate_and_warn_tool_name",
    "validate_tool_name",
]
