"""`ClientSessionGroup` (`mcp.client.session_group`): one client for many servers.

Each server gets its own `ClientSession` (through the engine); the group gathers their
prompts, resources and tools under one namespace, routes `call_tool` to the server that
offers the tool, and refuses a name two servers share (name them apart with
`component_name_hook(name, server_info)`). Every page of each list is gathered.

ferrymcp additions (not in the official SDK):
- `connect_mcp_json(config)` connects to every server of an `mcp.json` file (Claude
  Desktop / Cursor `mcpServers`, VS Code `servers` with `type`) at once, each with a
  timeout; a server that fails is reported in the returned statuses (and retried), never
  fatal. Their tools join `tools`, named as they are unless two of these servers offer
  the same name (then `SERVER__tool`); `call_tool` routes to the server, and a server
  whose connection is lost is reconnected. All of this is ferrymcp-core's client group.
- `mcp_json_servers()` (where each of those servers stands), `refresh_tools()` (gather
  their tools again), `tools_for(api)` (every tool as an LLM API's `tools`, see
  `ferrymcp.client.llm`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ferrymcp import _native
from ferrymcp.client import StdioServerParameters
from ferrymcp.client.llm import LlmApi, tool_definitions
from ferrymcp.client.session import ClientSession
from ferrymcp.client.sse import sse_client
from ferrymcp.client.stdio import stdio_client
from ferrymcp.client.streamable_http import streamablehttp_client
from ferrymcp.exceptions import McpError
from ferrymcp.types import INVALID_PARAMS, CallToolResult, Implementation, Prompt, Resource, Tool

_logger = logging.getLogger("ferrymcp.client")


@dataclass
class SseServerParameters:
    """A server of the deprecated HTTP+SSE transport."""

    url: str
    headers: dict[str, Any] | None = None
    timeout: float = 5.0
    sse_read_timeout: float = 300.0


@dataclass
class StreamableHttpParameters:
    """A Streamable HTTP server."""

    url: str
    headers: dict[str, Any] | None = None
    timeout: float = 30.0
    sse_read_timeout: float = 300.0
    terminate_on_close: bool = True


ServerParameters = StdioServerParameters | SseServerParameters | StreamableHttpParameters


@dataclass
class ClientSessionParameters:
    """The session options of one server of the group (`ClientSession`'s)."""

    read_timeout_seconds: float | None = None
    sampling_callback: Any = None
    elicitation_callback: Any = None
    list_roots_callback: Any = None
    logging_callback: Any = None
    message_handler: Any = None
    client_info: Implementation | None = None


@dataclass
class _Names:
    prompts: set[str] = field(default_factory=set)
    resources: set[str] = field(default_factory=set)
    tools: set[str] = field(default_factory=set)


class ClientSessionGroup:
    """Sessions with many servers, their components gathered (see the module doc)."""

    def __init__(
        self,
        exit_stack: contextlib.AsyncExitStack | None = None,
        component_name_hook: Callable[[str, Implementation], str] | None = None,
    ) -> None:
        self._tools: dict[str, Tool] = {}
        self._resources: dict[str, Resource] = {}
        self._prompts: dict[str, Prompt] = {}
        self._sessions: dict[ClientSession, _Names] = {}
        self._tool_to_session: dict[str, ClientSession] = {}
        self._owns_exit_stack = exit_stack is None
        self._exit_stack = exit_stack or contextlib.AsyncExitStack()
        self._session_stacks: dict[ClientSession, contextlib.AsyncExitStack] = {}
        self._component_name_hook = component_name_hook
        self._host: _native.NativeGroup | None = None
        self._host_tools: dict[str, Tool] = {}

    async def __aenter__(self) -> ClientSessionGroup:
        if self._owns_exit_stack:
            await self._exit_stack.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._owns_exit_stack:
            await self._exit_stack.aclose()
        for stack in list(self._session_stacks.values()):
            await stack.aclose()
        if self._host is not None:
            host, self._host = self._host, None
            await host.close()

    @property
    def sessions(self) -> list[ClientSession]:
        return list(self._sessions)

    @property
    def prompts(self) -> dict[str, Prompt]:
        return self._prompts

    @property
    def resources(self) -> dict[str, Resource]:
        return self._resources

    @property
    def tools(self) -> dict[str, Tool]:
        return self._tools

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: Any = None,
        *,
        meta: dict[str, Any] | None = None,
    ) -> CallToolResult:
        """Calls the tool the group knows as `name` on the server that offers it."""
        if name not in self._tool_to_session and self._host is not None:
            if progress_callback is not None or meta is not None:
                raise ValueError("progress_callback and meta are not supported for mcp.json servers' tools")
            result = await self._host.call_tool(name, arguments or {}, read_timeout_seconds)
            return CallToolResult.model_validate(result)
        session = self._tool_to_session[name]
        return await session.call_tool(
            self._tools[name].name, arguments, read_timeout_seconds, progress_callback, meta=meta
        )

    async def connect_mcp_json(
        self,
        config: str | os.PathLike[str] | Mapping[str, Any],
        *,
        connect_timeout: float = 30.0,
        min_backoff: float = 1.0,
        max_backoff: float = 30.0,
        client_info: Implementation | None = None,
        on_event: Callable[[str, str, str | None], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Connects to every server of an `mcp.json` file (a path, or its content as a
        dict) at once and adds their tools (ferrymcp; see the module doc). Returns each
        server's status: `{"name", "state": "connected"|"failed"|"connecting", "error"?,
        "connections", "pid"?}`. Servers that fail are retried in the background;
        `on_event(name, event, detail)` hears each `"connected"`, `"failed"` (with the
        error) and `"lost"` as it happens."""
        if self._host is not None:
            raise McpError(INVALID_PARAMS, "this group already has its mcp.json servers")
        if isinstance(config, Mapping):
            content: Any = dict(config)
        else:
            with open(config, encoding="utf-8") as file:
                content = json.load(file)
        options: dict[str, Any] = {}
        if client_info is not None:
            options["info"] = client_info.model_dump(by_alias=True, exclude_none=True, mode="json")
        self._host = await _native.NativeGroup.connect(
            content, connect_timeout, min_backoff, max_backoff, options, None, on_event
        )
        await self.refresh_tools()
        return self.mcp_json_servers()

    def mcp_json_servers(self) -> list[dict[str, Any]]:
        """Where each `mcp.json` server stands now (see `connect_mcp_json`)."""
        return [] if self._host is None else self._host.servers()

    async def refresh_tools(self) -> dict[str, Tool]:
        """Gathers the `mcp.json` servers' tools again (after a server came back, say)."""
        if self._host is None:
            return self._tools
        found = {entry["name"]: Tool.model_validate(entry["tool"]) for entry in await self._host.list_tools()}
        taken = set(found) & set(self._tool_to_session)
        if taken:
            raise McpError(INVALID_PARAMS, f"{taken} already exist in group tools.")
        for name in self._host_tools:
            self._tools.pop(name, None)
        self._host_tools = found
        self._tools.update(found)
        return self._tools

    def tools_for(self, api: LlmApi) -> list[dict[str, Any]]:
        """Every tool of the group, under its group name, as `api`'s `tools` parameter
        (`"openai-chat"`, `"openai-responses"`, `"anthropic"`)."""
        return tool_definitions(api, self._tools)

    async def disconnect_from_server(self, session: ClientSession) -> None:
        """Forgets one server's components and closes its session."""
        if session not in self._sessions and session not in self._session_stacks:
            raise McpError(INVALID_PARAMS, "Provided session is not managed or already disconnected.")
        names = self._sessions.pop(session, _Names())
        for name in names.prompts:
            self._prompts.pop(name, None)
        for name in names.resources:
            self._resources.pop(name, None)
        for name in names.tools:
            self._tools.pop(name, None)
            self._tool_to_session.pop(name, None)
        stack = self._session_stacks.pop(session, None)
        if stack is not None:
            await stack.aclose()

    async def connect_with_session(self, server_info: Implementation, session: ClientSession) -> ClientSession:
        """Adds an open session's components to the group."""
        await self._aggregate(server_info, session)
        return session

    async def connect_to_server(
        self, server_params: ServerParameters, session_params: ClientSessionParameters | None = None
    ) -> ClientSession:
        """Connects to one more server and adds its components."""
        server_info, session = await self._establish(server_params, session_params or ClientSessionParameters())
        return await self.connect_with_session(server_info, session)

    async def _establish(
        self, server_params: ServerParameters, options: ClientSessionParameters
    ) -> tuple[Implementation, ClientSession]:
        stack = contextlib.AsyncExitStack()
        try:
            if isinstance(server_params, SseServerParameters):
                pair = sse_client(
                    server_params.url, server_params.headers, server_params.timeout, server_params.sse_read_timeout
                )
                read, write = await stack.enter_async_context(pair)
            elif isinstance(server_params, StreamableHttpParameters):
                headers = {key: str(value) for key, value in (server_params.headers or {}).items()}
                http = streamablehttp_client(
                    server_params.url,
                    headers,
                    server_params.timeout,
                    server_params.sse_read_timeout,
                    server_params.terminate_on_close,
                )
                read, write, _ = await stack.enter_async_context(http)
            else:
                read, write = await stack.enter_async_context(stdio_client(server_params))
            session = await stack.enter_async_context(
                ClientSession(
                    read,
                    write,
                    read_timeout_seconds=options.read_timeout_seconds,
                    sampling_callback=options.sampling_callback,
                    elicitation_callback=options.elicitation_callback,
                    list_roots_callback=options.list_roots_callback,
                    logging_callback=options.logging_callback,
                    message_handler=options.message_handler,
                    client_info=options.client_info,
                )
            )
            result = await session.initialize()
        except BaseException:
            await stack.aclose()
            raise
        self._session_stacks[session] = stack
        return result.server_info, session

    async def _aggregate(self, server_info: Implementation, session: ClientSession) -> None:
        names = _Names()
        prompts: dict[str, Prompt] = {}
        resources: dict[str, Resource] = {}
        tools: dict[str, Tool] = {}
        capabilities = session.server_capabilities
        if capabilities.prompts is not None:
            for prompt in await _every(session.list_prompts, "prompts"):
                prompts[self._name(prompt.name, server_info)] = prompt
        if capabilities.resources is not None:
            for resource in await _every(session.list_resources, "resources"):
                resources[self._name(resource.name, server_info)] = resource
        if capabilities.tools is not None:
            for tool in await _every(session.list_tools, "tools"):
                tools[self._name(tool.name, server_info)] = tool
        for kind, found, known in (
            ("prompts", prompts, self._prompts),
            ("resources", resources, self._resources),
            ("tools", tools, self._tools),
        ):
            taken = set(found) & set(known)
            if taken:
                raise McpError(INVALID_PARAMS, f"{taken} already exist in group {kind}.")
        names.prompts, names.resources, names.tools = set(prompts), set(resources), set(tools)
        self._sessions[session] = names
        self._prompts.update(prompts)
        self._resources.update(resources)
        self._tools.update(tools)
        self._tool_to_session.update(dict.fromkeys(tools, session))

    def _name(self, name: str, server_info: Implementation) -> str:
        return self._component_name_hook(name, server_info) if self._component_name_hook else name


async def _every(list_page: Callable[..., Any], key: str) -> list[Any]:
    """Every item of a paginated list."""
    items: list[Any] = []
    cursor: str | None = None
    while True:
        try:
            page = await list_page(cursor)
        except McpError as error:
            _logger.warning("Could not fetch %s: %s", key, error)
            return items
        items.extend(getattr(page, key))
        cursor = page.next_cursor
        if not cursor:
            return items


__all__ = [
    "ClientSessionGroup",
    "ClientSessionParameters",
    "ServerParameters",
    "SseServerParameters",
    "StreamableHttpParameters",
]
