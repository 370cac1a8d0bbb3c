"""Stand-ins for the native objects, for tests of the Python layer alone.

`RecordingContext` has the `NativeContext` surface and records what the Python layer
asks of it, answering with canned results; `RecordingServer` records registrations.
They imitate no protocol: the tests that need the engine use the real native module.
"""

from __future__ import annotations

from typing import Any


class RecordingContext:
    def __init__(self, answers: dict[str, Any] | None = None, **properties: Any) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.answers = answers or {}
        self.request_id = properties.get("request_id", 7)
        self.client_info = properties.get("client_info", {"name": "test-client", "version": "1.0"})
        self.client_capabilities = properties.get("client_capabilities", {"sampling": {}, "elicitation": {}})
        self.protocol_version = properties.get("protocol_version", "2025-11-25")
        self.is_modern = properties.get("is_modern", False)
        self.progress_token = properties.get("progress_token", "tok")
        self.cancelled = False

    def is_cancelled(self) -> bool:
        return self.cancelled

    async def _record(self, name: str, *args: Any) -> Any:
        self.calls.append((name, args))
        return self.answers.get(name, True)

    def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> Any:
        return self._record("report_progress", progress, total, message)

    def log(self, level: str, data: Any, logger: str | None = None) -> Any:
        return self._record("log", level, data, logger)

    def elicit(self, params: dict[str, Any]) -> Any:
        return self._record("elicit", params)

    def sample(self, params: dict[str, Any]) -> Any:
        return self._record("sample", params)

    def list_roots(self) -> Any:
        return self._record("list_roots")

    def input(self, key: str | None, method: str, params: dict[str, Any]) -> Any:
        return self._record("input", key, method, params)

    def read_resource(self, uri: str) -> Any:
        return self._record("read_resource", uri)


class RecordingServer:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        def record(*args: Any) -> bool:
            self.calls.append((name, args[0] if args else None))
            return True

        return record
