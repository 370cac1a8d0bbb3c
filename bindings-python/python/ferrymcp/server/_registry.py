"""What a server offers, kept in Python until the engine starts and mirrored into it after.

`MCPServer` registers tools, resources, templates and prompts here as they are declared,
so mistakes fail at declaration and `list_tools()` works without the native module.
When the server runs, every registration is handed to the `NativeServer` in order;
registrations and removals made while it runs go straight to it as well.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ferrymcp._native import NativeServer


@dataclass(frozen=True)
class Registration:
    """One thing a server offers, in the shape the native server takes."""

    kind: str
    """"tool", "resource", "template" or "prompt"."""
    key: str
    """Its name, URI or URI template."""
    definition: dict[str, Any]
    handler: Callable[..., Any]
    is_async: bool
    fn: Callable[..., Any]
    task_start: str = "at_call"
    """A tool's: where its task starts (tasks extension), "at_call" or "on_request"."""
    argument_wording: Callable[[dict[str, Any]], str | None] | None = None
    """A tool's: pydantic's words for arguments the engine found invalid."""


_ADD = {"tool": "add_tool", "resource": "add_resource", "template": "add_resource_template", "prompt": "add_prompt"}


def _add(native: NativeServer, entry: Registration) -> None:
    add = getattr(native, _ADD[entry.kind])
    if entry.kind == "tool":
        add(entry.definition, entry.handler, entry.is_async, entry.task_start, entry.argument_wording)
    else:
        add(entry.definition, entry.handler, entry.is_async)


_LABEL = {"tool": "Tool", "resource": "Resource", "template": "Resource template", "prompt": "Prompt"}
# The official managers' loggers, in ferrymcp's namespace (`caplog.at_level(logger=...)`,
# logging configuration by name).
_LOGGER = {
    "tool": "ferrymcp.server.mcpserver.tools.tool_manager",
    "resource": "ferrymcp.server.mcpserver.resources.resource_manager",
    "template": "ferrymcp.server.mcpserver.resources.resource_manager",
    "prompt": "ferrymcp.server.mcpserver.prompts.manager",
}


class Registry:
    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], Registration] = {}
        self._completion: tuple[Callable[..., Any], bool] | None = None
        self._native: NativeServer | None = None
        self._lock = threading.Lock()

    def add(self, entry: Registration, *, warn: bool = True) -> None:
        """Registers `entry`. A second one under a key already taken is dropped, the
        first kept, as the official `MCPServer` does; `warn` logs a warning saying so
        (the official `warn_on_duplicate_*` settings)."""
        slot = ("resource" if entry.kind == "template" else entry.kind, entry.key)
        with self._lock:
            if slot in self._entries:
                if warn:
                    # The official SDK's words, which its users grep their logs for.
                    logging.getLogger(_LOGGER[entry.kind]).warning(
                        "%s already exists: %s", _LABEL[entry.kind], entry.key
                    )
                return
            if self._native is not None:
                _add(self._native, entry)
            self._entries[slot] = entry

    def remove(self, kind: str, key: str) -> bool:
        slot = ("resource" if kind == "template" else kind, key)
        with self._lock:
            entry = self._entries.pop(slot, None)
            if entry is not None and self._native is not None:
                if kind == "tool":
                    self._native.remove_tool(key)
                elif kind == "prompt":
                    self._native.remove_prompt(key)
                else:
                    self._native.remove_resource(key)
            return entry is not None

    def set_completion(self, handler: Callable[..., Any], is_async: bool) -> None:
        with self._lock:
            self._completion = (handler, is_async)
            if self._native is not None:
                self._native.set_completion_handler(handler, is_async)

    def of_kind(self, *kinds: str) -> list[Registration]:
        with self._lock:
            return [entry for entry in self._entries.values() if entry.kind in kinds]

    def get(self, kind: str, key: str) -> Registration | None:
        return self._entries.get(("resource" if kind == "template" else kind, key))

    @property
    def native(self) -> NativeServer | None:
        return self._native

    def attach(self, native: NativeServer) -> None:
        """Hands every registration to `native`, which serves them from now on."""
        with self._lock:
            for entry in self._entries.values():
                _add(native, entry)
            if self._completion is not None:
                native.set_completion_handler(*self._completion)
            self._native = native
