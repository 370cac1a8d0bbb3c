"""`ferrymcp.types` has every name of the official types package, and its message unions
read real wire messages as the official ones do.

The names are read from the installed official package (`mcp_types`, which `mcp.types`
re-exports) when the test runs, so a new official name fails here until ferrymcp has it.
The messages are the MCP schema's own examples (tests/mcp-schema/examples): each request,
notification and result goes through the adapter of its direction (`client_request_adapter`,
...), must come back as the class the example is filed under, and must dump to the same JSON.
"""

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import mcp
import mcp_types
import mcp_types.jsonrpc
import mcp_types.methods
import mcp_types.version
import pytest

import ferrymcp
from ferrymcp import types
from ferrymcp._wire import UnionAdapter

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "mcp-schema" / "examples"


def _public(module: Any) -> list[str]:
    return sorted(name for name in dir(module) if not name.startswith("_"))


def test_every_official_name_is_in_ferrymcp_types() -> None:
    missing = [name for name in _public(mcp_types) if not hasattr(types, name)]
    assert missing == []


@pytest.mark.parametrize("submodule", ["jsonrpc", "version"])
def test_official_submodules_have_their_names(submodule: str) -> None:
    official = getattr(mcp_types, submodule)
    ours = getattr(types, submodule)
    assert [name for name in official.__all__ if not hasattr(ours, name)] == []
    imported = __import__(f"ferrymcp.types.{submodule}", fromlist=["_"])
    assert imported is ours


def test_methods_maps_agree_with_the_official_ones() -> None:
    ours, official = types.methods, mcp_types.methods
    assert __import__("ferrymcp.types.methods", fromlist=["_"]) is ours
    for name in ("MONOLITH_REQUESTS", "MONOLITH_NOTIFICATIONS", "MONOLITH_RESULTS"):
        mine, theirs = getattr(ours, name), getattr(official, name)
        assert {method: str(row).replace("mcp_types._types.", "") for method, row in theirs.items()} == {
            method: str(row).replace("ferrymcp.types.", "") for method, row in mine.items()
        }
    assert ours.CACHEABLE_METHODS == official.CACHEABLE_METHODS
    assert ours.INPUT_REQUIRED_METHODS == official.INPUT_REQUIRED_METHODS
    assert ours.is_input_required({"resultType": "input_required"})
    assert ours.is_input_required(types.InputRequiredResult(request_state="s"))
    assert not ours.is_input_required(types.EmptyResult())
    with pytest.raises(AttributeError, match="per-revision method tables"):
        ours.parse_client_request  # noqa: B018 - reading the name is the test


def test_constants_equal_the_official_ones() -> None:
    for name in ("JSONRPC_VERSION", "CORE_RESULT_TYPES", *mcp_types.jsonrpc.__all__):
        value = getattr(mcp_types, name)
        if isinstance(value, (int, str, frozenset)):
            assert getattr(types, name) == value, name
    for name in mcp_types.version.__all__:
        value = getattr(mcp_types.version, name)
        if not callable(value):
            assert getattr(types.version, name) == value, name


@pytest.mark.parametrize(("version", "minimum"), [("2025-06-18", "2025-03-26"), ("2024-11-05", "2025-11-25")])
def test_version_comparison_agrees_with_the_official_one(version: str, minimum: str) -> None:
    expected = mcp_types.version.is_version_at_least(version, minimum)
    assert types.version.is_version_at_least(version, minimum) is expected
    assert types.version.is_version_at_least("zzz", minimum) is False
    with pytest.raises(ValueError, match="known protocol version"):
        types.version.is_version_at_least(version, "zzz")


def test_official_top_level_type_and_exception_names_are_in_ferrymcp() -> None:
    # Sessions, transports and the URI-template helper are API of their own, not types.
    elsewhere = {"ClientSession", "ClientSessionGroup", "ServerSession", "stdio_client", "stdio_server"}
    elsewhere |= {"UriTemplate", "InvalidUriTemplate"}
    missing = sorted(set(mcp.__all__) - set(dir(ferrymcp)) - elsewhere)
    assert missing == []
    assert issubclass(ferrymcp.MCPDeprecationWarning, UserWarning)
    with pytest.warns(ferrymcp.MCPDeprecationWarning):
        warnings.warn("old", ferrymcp.MCPDeprecationWarning, stacklevel=1)


def test_names_the_1x_module_had_still_import() -> None:
    from ferrymcp.types import (  # noqa: F401 - importing is the test
        TASK_REQUIRED,
        TASK_STATUS_WORKING,
        AnyFunction,
        ClientRequestType,
        Content,
        MethodT,
        ResourceReference,
        ServerResultType,
        TaskExecutionMode,
    )

    assert ResourceReference is types.ResourceTemplateReference
    assert (TASK_REQUIRED, TASK_STATUS_WORKING) == ("required", "working")
    meta = types.RequestParams.Meta(progressToken=5)
    assert meta.progress_token == 5


def test_importing_the_types_loads_neither_pydantic_nor_the_engine() -> None:
    code = (
        "import sys, ferrymcp.types, ferrymcp.types.jsonrpc, ferrymcp.types.version\n"
        "print(sorted(m for m in ('pydantic', 'ferrymcp._native') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- wire messages through the adapters ------------------------------------------------------

ADAPTER_NAMES = (
    "client_request_adapter",
    "server_request_adapter",
    "client_notification_adapter",
    "server_notification_adapter",
    "server_result_adapter",
    "client_result_adapter",
)
ADAPTERS = tuple(getattr(types, name) for name in ADAPTER_NAMES)
OFFICIAL_ADAPTERS = {getattr(types, name).name: getattr(mcp_types, name) for name in ADAPTER_NAMES}


def _adapter(folder: str) -> UnionAdapter | None:
    """The first adapter whose union has the class the example is filed under."""
    cls = getattr(types, folder, None)
    return next((adapter for adapter in ADAPTERS if cls in adapter.arms), None)


def _messages() -> list[tuple[str, Path]]:
    found = []
    for revision in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()) if EXAMPLES.is_dir() else []:
        for folder in sorted(p for p in revision.iterdir() if p.is_dir()):
            if _adapter(folder.name) is not None:
                found += [(folder.name, path) for path in sorted(folder.glob("*.json"))]
    return found


def _body(message: dict[str, Any]) -> dict[str, Any]:
    """The 2026-07-28 examples are whole envelopes; the message is what is in them."""
    return {key: value for key, value in message.items() if key not in ("jsonrpc", "id")}


@pytest.mark.parametrize(
    ("folder", "path"), _messages(), ids=lambda v: f"{v.parent.parent.name}/{v.name}" if isinstance(v, Path) else v
)
def test_example_messages_validate_into_their_class_and_dump_back(folder: str, path: Path) -> None:
    adapter = _adapter(folder)
    assert adapter is not None
    data = _body(json.loads(path.read_text()))
    parsed = adapter.validate_python(data)
    # The class the official union reads it as: the one it is filed under, or the SDK's
    # tool-using form of a sampling result, or EmptyResult for a result with no fields of
    # its own (a listen result's); the same here.
    official = type(OFFICIAL_ADAPTERS[adapter.name].validate_python(data)).__name__
    assert type(parsed).__name__ == official
    assert official in (folder, f"{folder}WithTools", "EmptyResult")
    assert adapter.dump_python(parsed, by_alias=True, exclude_unset=True) == data
    again = adapter.validate_json(adapter.dump_json(parsed, by_alias=True, exclude_unset=True))
    assert again == parsed


def test_there_are_messages_of_every_kind() -> None:
    kinds = {adapter.name for adapter in (_adapter(folder) for folder, _ in _messages()) if adapter}
    assert kinds == {
        "ClientRequest",
        "ServerRequest",
        "ClientNotification",
        "ServerNotification",
        "ClientResult",
        "ServerResult",
    }


def _envelopes() -> list[Path]:
    return sorted(
        path for path in EXAMPLES.glob("2026-07-28/*/*.json") if json.loads(path.read_text()).get("jsonrpc") == "2.0"
    )


@pytest.mark.parametrize("path", _envelopes(), ids=lambda p: p.parent.name + "/" + p.name)
def test_example_envelopes_read_as_their_kind(path: Path) -> None:
    data = json.loads(path.read_text())
    message = types.jsonrpc_message_adapter.validate_python(data)
    expected = (
        types.JSONRPCError
        if "error" in data
        else types.JSONRPCResponse
        if "result" in data
        else types.JSONRPCRequest
        if "id" in data
        else types.JSONRPCNotification
    )
    assert type(message) is expected
    assert types.jsonrpc_message_adapter.dump_python(message, by_alias=True, exclude_unset=True) == data


def test_params_read_as_their_models() -> None:
    request = types.client_request_adapter.validate_python(
        {"method": "tools/call", "params": {"name": "t", "arguments": {"a": 1}, "_meta": {"progressToken": 7}}}
    )
    assert isinstance(request, types.CallToolRequest)
    assert isinstance(request.params, types.CallToolRequestParams)
    assert request.params.meta == {"progressToken": 7}
    listing = types.ListToolsRequest(params=types.PaginatedRequestParams(cursor="c"))
    assert listing.model_dump(by_alias=True, exclude_none=True) == {"method": "tools/list", "params": {"cursor": "c"}}


def test_results_pick_the_best_fitting_class() -> None:
    adapter = types.server_result_adapter
    assert type(adapter.validate_python({})) is types.EmptyResult
    assert type(adapter.validate_python({"tools": []})) is types.ListToolsResult
    retry = adapter.validate_python({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}})
    assert isinstance(retry, types.InputRequiredResult)
    assert isinstance(retry.input_requests["r"], types.ListRootsRequest)


def test_model_fields_describe_the_fields_as_pydantic_does() -> None:
    fields = types.CompletionContext.model_fields
    assert fields["arguments"].annotation == (dict[str, str] | None)
    assert not fields["arguments"].is_required()
    tool = types.CallToolRequestParams.model_fields
    assert tool["name"].is_required() and tool["input_responses"].alias == "inputResponses"


def test_input_required_result_needs_requests_or_state() -> None:
    with pytest.raises(ValueError, match="input_requests or request_state"):
        types.InputRequiredResult()
    assert types.InputRequiredResult(request_state="s").result_type == "input_required"


def test_an_unknown_method_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="custom/thing"):
        types.client_request_adapter.validate_python({"method": "custom/thing"})


def test_custom_requests_declare_like_the_official_generic_classes() -> None:
    from typing import Literal

    class Params(types.RequestParams):
        x: int

    class Custom(types.Request[Params, Literal["custom/x"]]):
        method: Literal["custom/x"] = "custom/x"
        params: Params

    custom = Custom.model_validate({"method": "custom/x", "params": {"x": 1}})
    assert custom.params.x == 1


def test_mcp_error_reads_and_builds_the_wire_error_object() -> None:
    error = ferrymcp.McpError(types.INVALID_PARAMS, "bad", {"field": "x"})
    assert error.error == types.ErrorData(code=-32602, message="bad", data={"field": "x"})
    response = types.jsonrpc_message_adapter.validate_python(
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}}
    )
    again = ferrymcp.McpError.from_jsonrpc_error(response)
    assert (again.code, again.message, again.data) == (-32601, "no such method", None)


def test_url_elicitation_error_carries_its_elicitations() -> None:
    elicitation = types.ElicitRequestURLParams(message="sign in", url="https://example.com", elicitation_id="e1")
    error = ferrymcp.UrlElicitationRequiredError([elicitation])
    assert error.code == types.URL_ELICITATION_REQUIRED
    assert error.data == {"elicitations": [elicitation.model_dump(by_alias=True, exclude_none=True)]}
    again = ferrymcp.UrlElicitationRequiredError.from_error(
        types.ErrorData(code=error.code, message="m", data=error.data)
    )
    assert again.elicitations == [elicitation]
