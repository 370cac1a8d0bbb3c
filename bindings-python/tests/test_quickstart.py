"""The seed quick-start server runs on ferrymcp with only its import changed.

Here, without the engine: it imports, and lists the same tool, template and prompt as
the same file on the official SDK (v2 path). test_quickstart_stdio.py serves it.
"""

import asyncio
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from seed_tools import seed_with_import


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _listing(server: Any) -> dict[str, Any]:
    def wire(items: list[Any]) -> list[dict[str, Any]]:
        return [item.model_dump(by_alias=True, exclude_none=True, mode="json") for item in items]

    return {
        "tools": wire(asyncio.run(server.list_tools())),
        "templates": wire(asyncio.run(server.list_resource_templates())),
        "prompts": wire(asyncio.run(server.list_prompts())),
    }


def test_the_seed_imports_and_lists_as_on_the_official_sdk(tmp_path: Path) -> None:
    ours = _load(seed_with_import("ferrymcp", tmp_path)).mcp
    assert (ours.name, ours.version) == ("Quickstart", "1.0.0")
    pytest.importorskip("mcp.server.mcpserver")
    theirs = _load(seed_with_import("official-v2", tmp_path)).mcp
    assert _listing(ours) == _listing(theirs)


def test_the_seed_tool_and_prompt_run_in_process(tmp_path: Path) -> None:
    ours = _load(seed_with_import("ferrymcp", tmp_path)).mcp
    assert asyncio.run(ours.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}
    prompt = asyncio.run(ours.get_prompt("translate", {"text": "cheese"}))
    assert prompt.messages[0].content.text == "Translate this into French: cheese"
