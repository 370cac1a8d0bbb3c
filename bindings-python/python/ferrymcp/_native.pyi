"""Type stubs of `ferrymcp._native`, the PyO3 module over ferrymcp-core.

The boundary between the engine and the Python layer: plain dicts of MCP wire JSON
cross it, handlers are Python callables (sync ones run on worker threads, async ones on
the event loop that awaits `serve_stdio()` or connects a client), and every awaitable
here is a Rust future. The exceptions it raises are the classes of `ferrymcp.exceptions`,
which it looks up there (`src/errors.rs`); it defines none itself.
"""

from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypedDict, final

__all__ = [
    "__version__",
    "NativeServer",
    "NativeHttpServer",
    "NativeHttpHandler",
    "NativeAuthServer",
    "NativeResponseBody",
    "NativeContext",
    "NativeSpecTask",
    "NativeClient",
    "NativeSubscription",
    "NativePort",
    "NativeNext",
    "NativeGroup",
    "NativeListedTools",
    "llm_tool_definitions",
    "llm_tool_result",
    "RedisStore",
    "NativeUriTemplate",
    "check_result_claim",
    "check_result_claims",
    "default_environment",
    "check_tool_name",
    "metadata_path",
    "canonical_resource",
    "resource_covers",
    "check_state_keys",
    "check_task_mode",
    "is_terminal_task_status",
    "require_client_extension",
    "classify_inbound_request",
    "unsupported_protocol_version_rejection",
    "encode_header_value",
    "decode_header_value",
    "find_duplicated_routing_header",
    "inbound_tables",
    "find_invalid_x_mcp_header",
    "x_mcp_header_map",
    "mcp_param_headers",
    "validate_mcp_param_headers",
    "reopen_log_pump",
    "take_log_records",
    "PROTOCOL_VERSIONS",
    "LATEST_PROTOCOL_VERSION",
    "MODERN_PROTOCOL_VERSION",
    "DEFAULT_NEGOTIATED_VERSION",
    "ERROR_CODES",
    "LOG_LEVELS",
    "META_KEYS",
    "DEFAULT_MAX_LISTEN_STREAMS",
]

__version__: str

# Names for types only (not in the module; stubtest-allowlist.txt lists them).
JsonObject = dict[str, Any]

# The protocol's constants, from core (ferrymcp.types re-exports them by their official names).
PROTOCOL_VERSIONS: list[str]
"""Every revision the engine speaks, oldest first."""
LATEST_PROTOCOL_VERSION: str
"""The newest revision negotiated with `initialize`."""
MODERN_PROTOCOL_VERSION: str
"""The newest (stateless) revision."""
DEFAULT_NEGOTIATED_VERSION: str
"""The revision assumed when an HTTP request names none."""
ERROR_CODES: dict[str, int]
"""Every JSON-RPC and MCP error code, by name (`"INVALID_PARAMS"`: -32602, ...)."""
LOG_LEVELS: list[str]
"""The log levels, least severe first."""
META_KEYS: dict[str, str]
"""The `_meta` keys MCP reserves, by name (`"PROTOCOL_VERSION"`, ...)."""
DEFAULT_MAX_LISTEN_STREAMS: int
"""The engine's default cap on open `subscriptions/listen` streams (the official 1024)."""

@final
class NativeContext:
    """The request a handler serves."""

    @property
    def request_id(self) -> int | str: ...
    @property
    def client_info(self) -> JsonObject | None: ...
    @property
    def client_capabilities(self) -> JsonObject: ...
    @property
    def protocol_version(self) -> str: ...
    @property
    def is_modern(self) -> bool: ...
    @property
    def progress_token(self) -> int | str | None: ...
    @property
    def input_responses(self) -> JsonObject | None: ...
    @property
    def request_state(self) -> str | None: ...
    def is_cancelled(self) -> bool: ...
    def auth_info(self) -> JsonObject | None:
        """The request's accepted bearer token (the engine's AuthInfo, camelCase keys)."""
    def close_sse_stream(self) -> bool: ...
    def close_standalone_sse_stream(self) -> bool: ...
    @property
    def can_close_sse_stream(self) -> bool: ...
    @property
    def can_send_request(self) -> bool: ...
    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> Awaitable[bool]: ...
    def log(self, level: str, data: Any, logger: str | None = None) -> Awaitable[bool]: ...
    def elicit(self, params: JsonObject) -> Awaitable[JsonObject]: ...
    def sample(self, params: JsonObject) -> Awaitable[JsonObject]: ...
    def list_roots(self) -> Awaitable[JsonObject]: ...
    def session_request(
        self, method: str, params: JsonObject, timeout: float | None = None
    ) -> Awaitable[JsonObject]: ...
    def notify(self, method: str, params: JsonObject | None, request_scoped: bool) -> Awaitable[bool]: ...
    def input(
        self, key: str | None, method: str, params: JsonObject, timeout: float | None = None
    ) -> Awaitable[JsonObject]: ...
    def resolver_input(
        self, resolver: str, method: str, params: JsonObject, timeout: float | None = None
    ) -> Awaitable[JsonObject]: ...
    def start_task(self) -> bool: ...
    def begin_spec_task(self, task: dict[str, Any]) -> Awaitable[tuple[dict[str, Any], NativeSpecTask]]: ...
    @property
    def task_id(self) -> str | None: ...
    def read_resource(self, uri: str) -> Awaitable[JsonObject]: ...

ToolHandler = Callable[[JsonObject, NativeContext], Any]
ResourceHandler = Callable[[str, JsonObject, NativeContext], Any]
PromptHandler = Callable[[JsonObject, NativeContext], Any]
CompletionHandler = Callable[[JsonObject, NativeContext], Any]

@final
class NativeSpecTask:
    @property
    def task_id(self) -> str: ...
    @property
    def context(self) -> NativeContext: ...
    def is_cancelled(self) -> bool: ...
    def cancelled(self) -> Awaitable[None]: ...
    def get(self) -> Awaitable[dict[str, Any]]: ...
    def update_status(self, message: str, notify: bool = True) -> Awaitable[None]: ...
    def complete(self, result: Any) -> Awaitable[None]: ...
    def fail(self, message: str) -> Awaitable[None]: ...

@final
class NativeServer:
    """A dual-era MCP server: register what it offers, then serve."""

    def __new__(
        cls, info: JsonObject, instructions: str | None = None, options: JsonObject | None = None
    ) -> NativeServer: ...
    def add_tool(
        self,
        definition: JsonObject,
        handler: ToolHandler,
        is_async: bool,
        task_start: str = "at_call",
        argument_wording: Callable[[JsonObject], str | None] | None = None,
    ) -> None: ...
    def add_resource(self, definition: JsonObject, handler: ResourceHandler, is_async: bool) -> None: ...
    def add_resource_template(self, definition: JsonObject, handler: ResourceHandler, is_async: bool) -> None: ...
    def add_prompt(self, definition: JsonObject, handler: PromptHandler, is_async: bool) -> None: ...
    def set_completion_handler(self, handler: CompletionHandler, is_async: bool) -> None: ...
    def enable_spec_tasks(self) -> None: ...
    def set_task_store(self, call: Callable[[str, Any], Awaitable[Any]]) -> None: ...
    def set_request_handler(self, method: str, handler: CompletionHandler, is_async: bool) -> None: ...
    def set_middleware(self, chain: Callable[[JsonObject, NativeNext], Awaitable[Any]] | None) -> None:
        """Runs `chain(message, next)` around every inbound message; None removes it."""
    def set_notification_handler(self, method: str, handler: Callable[[JsonObject], Any], is_async: bool) -> None:
        """Delivers client notification `method` to `handler(params)` on the server's loop."""
    def register_capabilities(self, capabilities: JsonObject) -> None: ...
    def remove_tool(self, name: str) -> bool: ...
    def remove_resource(self, uri: str) -> bool: ...
    def remove_prompt(self, name: str) -> bool: ...
    def serve_stdio(self) -> Awaitable[None]: ...
    def serve_port(self, port: NativePort) -> Awaitable[None]:
        """Serves the connection whose messages `port` carries; finishes when it closes."""
    def serve_http(
        self, host: str, port: int, options: HttpOptions, tls: tuple[str, str] | None = None
    ) -> Awaitable[NativeHttpServer]: ...
    def http_handler(self, options: HttpOptions) -> NativeHttpHandler:
        """The endpoint for an ASGI app; handlers run on the calling loop."""
    def call_tool(self, name: str, arguments: JsonObject) -> Awaitable[JsonObject]: ...
    def notify_tools_changed(self) -> Awaitable[None]: ...
    def notify_prompts_changed(self) -> Awaitable[None]: ...
    def notify_resources_changed(self) -> Awaitable[None]: ...
    def notify_resource_updated(self, uri: str) -> Awaitable[None]: ...
    def carry_listen_events(self) -> None: ...
    def notify_listeners(self, method: str, params: dict[str, Any]) -> Awaitable[None]: ...
    def close_listen_streams(self) -> None: ...

class HttpOptions(TypedDict, total=False):
    """What the author set for the endpoint; the engine checks it and decides the rest (the
    Host/Origin defaults from `host`, the address served on)."""

    endpoint: str
    host: str
    max_body: int
    max_sessions: int
    session_idle: float
    retry: float
    allowed_hosts: list[str]
    allowed_origins: list[str]
    dns_rebinding_protection: bool
    auth: BearerOptions
    auth_server: dict[str, Any]
    stateless: bool
    json_response: bool
    # A RedisStore, or an application's EventStore as `(keep, replay)`: `keep(stream_id,
    # message_json | None) -> event_id`, `replay(last_event_id) -> (stream_id,
    # [(event_id, message_json)]) | None`.
    event_store: (
        RedisStore
        | tuple[
            Callable[[str, bytes | None], Awaitable[str]],
            Callable[[str], Awaitable[tuple[str, list[tuple[str, bytes]]] | None]],
        ]
    )
    # The application's routes on the engine's own server: `(method, path, query, headers,
    # body)` to `(status, headers, body)`, or None for a path none of them takes.
    routes: Callable[
        [str, str, bytes, list[tuple[bytes, bytes]], bytes],
        Awaitable[tuple[int, list[tuple[bytes, bytes]], bytes] | None],
    ]

@final
class RedisStore:
    """Sessions, resumable events and the replicas' bus on one Redis server
    (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS), so several replicas
    of a server behind a load balancer serve the same legacy sessions. The connection is
    made on first use and remade when lost."""

    def __new__(
        cls,
        url: str,
        *,
        prefix: str = ...,
        events_per_stream: int = 1024,
        events_max_age: float = 3600.0,
        timeout: float = 1.0,
    ) -> RedisStore: ...

class BearerOptions(TypedDict, total=False):
    """Bearer tokens required on the endpoint: `verify` says what a token is (an AuthInfo
    dict, or None); the engine applies the scopes, expiry and audience."""

    verify: Callable[[str], Awaitable[JsonObject | None]]
    required_scopes: list[str]
    authorization_servers: list[str]
    scopes_supported: list[str] | None
    resource: str
    audience: str

HttpHeaders = list[tuple[bytes, bytes]]

@final
class NativeAuthServer:
    """The engine's OAuth authorization server over a provider's `dispatch` (see
    `ferrymcp.server.auth._bridge`), for the routes of `create_auth_routes`."""

    def __new__(cls, options: dict[str, Any]) -> NativeAuthServer: ...
    def routes(self) -> list[tuple[str, list[str]]]: ...
    def handle(
        self, method: str, path: str, query: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> Awaitable[tuple[int, list[tuple[bytes, bytes]], bytes]]: ...

@final
class NativeHttpHandler:
    """The engine's Streamable HTTP endpoint, one call per HTTP request."""

    max_body: int

    def handle(
        self, method: str, target: str, headers: HttpHeaders, body: bytes
    ) -> Awaitable[tuple[int, HttpHeaders, bytes | NativeResponseBody]]:
        """Status, headers, and the whole body, or a stream of SSE chunks."""
    def shutdown(self) -> Awaitable[None]: ...

@final
class NativeResponseBody:
    """An SSE response being read; `close()` (the client left) cancels a 2026-07-28 request."""

    def next(self) -> Awaitable[bytes | None]: ...
    def close(self) -> None: ...

@final
class NativeHttpServer:
    """The engine's Streamable HTTP server, listening."""

    @property
    def address(self) -> tuple[str, int]: ...
    def shutdown(self) -> Awaitable[None]: ...

def check_result_claim(result_type: str, method: str, protocol_versions: list[str] | None = None) -> None:
    """Raises `ValueError` unless the claim may be made (core's check)."""

def check_result_claims(claims: list[JsonObject], capabilities: JsonObject) -> None:
    """Raises `ValueError` unless a client may make these claims together (core's check)."""

def check_tool_name(name: str) -> tuple[bool, list[str]]:
    """Whether `name` follows the 2025-11-25 tool-naming rule, and the findings in the
    official Python SDK's words."""

def default_environment() -> dict[str, str]:
    """The environment a child server inherits by default (core's list)."""

def metadata_path(resource: str | None, endpoint: str) -> str:
    """Where an endpoint serves its protected resource metadata (RFC 9728)."""

def canonical_resource(url: str) -> str:
    """The canonical resource URI of a server URL (RFC 8707), as core's OAuth client sends it."""

def resource_covers(resource: str, server: str) -> bool:
    """Whether the resource URI `resource` covers the server URL `server` (core's rule)."""

def check_state_keys(keys: list[bytes]) -> None:
    """Core's rule for a ring of request-state keys: `ValueError` naming a key under 32 bytes."""

def check_task_mode(mode: str | None, requested: bool) -> tuple[int, str] | None:
    """Core's `validate_task_mode` rule: the refusal as `(code, message)`, or `None`."""

def is_terminal_task_status(status: str) -> bool:
    """Whether a task status is final (core's rule)."""

def require_client_extension(capabilities: Any, identifier: str) -> None:
    """Core's `require_client_extension`: `McpError` -32021 unless `capabilities` (what the
    client declared, as JSON) lists extension `identifier`."""

def classify_inbound_request(
    body: Any, headers: Any | None, supported: list[str]
) -> tuple[Literal[True], tuple[str, Any, Any]] | tuple[Literal[False], tuple[int, str, Any]]:
    """Core's copy of the official inbound ladder: `(True, route fields)` or `(False,
    (code, message, data))` of the first rung that failed."""

def unsupported_protocol_version_rejection(requested: str, supported: list[str]) -> tuple[int, str, Any] | None:
    """The -32022 rejection fields, or `None` when `requested` is supported."""

def encode_header_value(value: str) -> str:
    """A value as an HTTP header carries it (the `=?base64?...?=` sentinel when needed)."""

def decode_header_value(value: str | None) -> str | None:
    """The inverse of `encode_header_value`; `None` for a malformed sentinel."""

def find_duplicated_routing_header(names: list[str]) -> str | None:
    """A routing header name given more than once."""

def inbound_tables() -> tuple[dict[int, int], dict[str, str], dict[str, str]]:
    """`ERROR_CODE_HTTP_STATUS`, `NAME_BEARING_METHODS` and the header names and prefixes."""

def find_invalid_x_mcp_header(input_schema: Any) -> str | None:
    """Why an `x-mcp-header` annotation of the schema is invalid, or `None`."""

def x_mcp_header_map(input_schema: Any) -> list[tuple[list[str], str]]:
    """`(property path, token)` of every annotated property."""

def mcp_param_headers(header_map: list[tuple[list[str], str]], arguments: Any) -> list[tuple[str, str]]:
    """The `Mcp-Param-*` headers a call mirrors from its arguments."""

def validate_mcp_param_headers(
    input_schema: Any, arguments: Any, headers: list[tuple[str, str]]
) -> tuple[int, str, Any] | None:
    """The -32020 rejection fields of the first `Mcp-Param-*` header that disagrees, or `None`."""

def reopen_log_pump() -> int:
    """In a forked child: a fresh queue of core's log lines, and the read end (a socket
    descriptor, now the caller's) its logging thread waits on."""

def take_log_records() -> tuple[list[tuple[str, int, str]], int]:
    """The queued log lines of core (logger name, level, message), and how many did not
    fit in the queue since the last call."""

@final
class NativeUriTemplate:
    """An RFC 6570 URI template parsed by core (the parser that matches `resources/read`);
    `ValueError(message, position)` when it does not parse."""

    def __new__(cls, template: str, max_length: int = ..., max_variables: int = ...) -> NativeUriTemplate: ...
    def variables(self) -> list[tuple[str, str, bool]]:
        """`(name, operator, explode)` of every variable, in order."""
    def query_variables(self) -> list[str]:
        """The variables a URI may leave out (a trailing `{?...}` run)."""
    def expand(self, values: dict[str, str | list[str]]) -> str:
        """The URI for these values; `TypeError` names a value that is not str or list[str]."""
    def match(self, uri: str, max_uri_length: int = ...) -> dict[str, str | list[str]] | None:
        """The variables if `uri` fits, else None."""

def llm_tool_definitions(api: str, tools: list[JsonObject]) -> list[JsonObject]:
    """MCP tools as an LLM API's `tools` parameter (core's conversion)."""

def llm_tool_result(api: str, call_id: str, result: JsonObject) -> list[JsonObject]:
    """A tool result as the items an LLM API takes for one call (core's conversion)."""

@final
class NativeListedTools:
    """Core's record of the tools a 1.x `@server.list_tools()` listed, to check calls against."""

    def __new__(cls) -> NativeListedTools: ...
    def record(self, tools: Any, replace: bool) -> None: ...
    def knows(self, name: str) -> bool: ...
    def check_input(self, name: str, arguments: Any) -> str | None: ...
    def check_output(self, name: str, structured: Any) -> str | None: ...

@final
class NativeGroup:
    """Core's client group: many servers from an mcp.json file, one set of tool names."""

    @staticmethod
    def connect(
        config: object,
        connect_timeout: float,
        min_backoff: float,
        max_backoff: float,
        options: JsonObject | None = None,
        callbacks: JsonObject | None = None,
        events: Callable[[str, str, str | None], None] | None = None,
    ) -> Awaitable[NativeGroup]: ...
    def servers(self) -> list[JsonObject]: ...
    def list_tools(self) -> Awaitable[list[JsonObject]]: ...
    def call_tool(
        self, name: str, arguments: object | None = None, timeout: float | None = None
    ) -> Awaitable[JsonObject]: ...
    def close(self) -> Awaitable[None]: ...

@final
class NativeClient:
    """A dual-era MCP client connected to one server."""

    @staticmethod
    def spawn(
        command: str,
        args: list[str],
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        options: JsonObject | None = None,
        callbacks: JsonObject | None = None,
    ) -> Awaitable[NativeClient]: ...
    @staticmethod
    def connect_http(
        url: str,
        headers: list[tuple[str, str]] | None = None,
        bearer_token: str | None = None,
        options: JsonObject | None = None,
        callbacks: JsonObject | None = None,
        oauth: dict[str, Any] | None = None,
        ca_file: str | None = None,
        client_cert: tuple[str, str] | None = None,
        exchange: Callable[..., Awaitable[None]] | None = None,
    ) -> Awaitable[NativeClient]: ...
    @staticmethod
    def connect_server(
        server: NativeServer, options: JsonObject | None = None, callbacks: JsonObject | None = None
    ) -> Awaitable[NativeClient]: ...
    @staticmethod
    def connect_port(
        port: NativePort, options: JsonObject | None = None, callbacks: JsonObject | None = None
    ) -> Awaitable[NativeClient]: ...
    def server_details(self) -> JsonObject: ...
    def request(
        self,
        method: str,
        params: JsonObject,
        timeout: float | None = None,
        progress: Callable[[float, float | None, str | None], None] | None = None,
        cache_mode: str | None = None,
        allow_input_required: bool = False,
        validate_tool: str | None = None,
    ) -> Awaitable[JsonObject]: ...
    def claims(self, method: str, result_type: str) -> bool: ...
    def validate_tool_result(self, name: str, result: JsonObject) -> Awaitable[None]: ...
    def list_all(self, method: str, key: str) -> Awaitable[list[JsonObject]]: ...
    def close(self) -> Awaitable[None]: ...
    def listen(self, filter: JsonObject, timeout: float | None = None) -> Awaitable[NativeSubscription]: ...
    def send_roots_list_changed(self) -> Awaitable[None]: ...
    def call_tool_as_task(
        self,
        name: str,
        arguments: Any,
        ttl: int | None = None,
        meta: Any = None,
        timeout: float | None = None,
    ) -> Awaitable[dict[str, Any]]: ...
    def get_task(self, task_id: str) -> Awaitable[dict[str, Any]]: ...
    def poll_task_step(self, task_id: str, previous: Any = None) -> Awaitable[dict[str, Any] | None]: ...
    def update_task(self, task_id: str, input_responses: Any) -> Awaitable[dict[str, Any]]: ...
    def cancel_task(self, task_id: str) -> Awaitable[dict[str, Any]]: ...
    def list_tasks(self, cursor: str | None = None) -> Awaitable[dict[str, Any]]: ...
    def task_result(self, task_id: str) -> Awaitable[dict[str, Any]]: ...

@final
class NativeSubscription:
    """One open `subscriptions/listen` stream (2026-07-28)."""

    @property
    def honored(self) -> JsonObject: ...
    @property
    def subscription_id(self) -> Any: ...
    def close(self) -> Awaitable[None]: ...
    def closed(self) -> Awaitable[str]: ...

@final
class NativePort:
    """A connection whose JSON-RPC messages Python carries (streams the program made)."""

    def __init__(self) -> None: ...
    def send(self, message: str) -> bool:
        """Hands one message (JSON text) to the engine, in call order; False once closed."""
    def recv(self) -> Awaitable[str | None]:
        """The engine's next message, or None once it has closed its side."""
    def close(self) -> None:
        """Ends the stream towards the engine."""

@final
class NativeNext:
    """The rest of one inbound message's handling, for a middleware chain to await once."""

    def run(self) -> Awaitable[JsonObject | None]:
        """The answer: a result dict, None (a notification), or the McpError the client would get.
        The handlers it runs run in a copy of the caller's `contextvars` context."""
