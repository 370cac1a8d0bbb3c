"""A chatbot host on ferrymcp: every server of an mcp.json file, one model, tool calls.

    python examples/python/chatbot.py [--config mcp.json] [--scripted]

It reads the mcp.json file (Claude Desktop / Cursor `mcpServers`, or VS Code `servers`),
connects to every server at once (a server that fails is reported and left out), offers
all their tools to the model in the OpenAI Chat Completions `tools` format, runs the tool
calls the model makes on the server that offers each tool, gives the results back, and
loops until the model answers in text; then reads the next line (`quit` ends).

The model: an OpenAI-compatible Chat Completions endpoint when OPENAI_API_KEY is set
(OPENAI_BASE_URL, default https://api.openai.com/v1; OPENAI_MODEL, default gpt-4o-mini),
spoken to over plain HTTP; otherwise (or with --scripted) a scripted model that plans its
tool calls from the words of the request, so the example runs offline and is tested.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import urllib.request
from typing import Any

from ferrymcp import ClientSessionGroup
from ferrymcp.client.llm import tool_result

API = "openai-chat"
SYSTEM = "You are a helpful assistant. Use the tools when they help; answer briefly."


class OpenAIModel:
    """Chat Completions over HTTP (no SDK)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.url = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1").rstrip("/") + "/chat/completions"
        self.model = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url,
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            answer: dict[str, Any] = json.load(response)
        return answer

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"model": self.model, "messages": messages, "tools": tools}
        answer = await asyncio.to_thread(self._post, body)
        message: dict[str, Any] = answer["choices"][0]["message"]
        return message


class ScriptedModel:
    """Answers like a Chat Completions model, planning from the request's words:
    "remember X" stores X in the memory server, "read my note" finds the allowed
    directory and reads note.txt there, "add A and B" sums; then it reports the results."""

    def __init__(self) -> None:
        self.calls = 0

    def _call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        call_id = f"call_{self.calls}"
        return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        offered = {tool["function"]["name"] for tool in tools}
        since = messages[max(i for i, m in enumerate(messages) if m["role"] == "user") :]
        turn = [m for m in since if m["role"] == "tool"]
        request = since[0]["content"].lower()
        results = {m["tool_call_id"]: m["content"] for m in turn}
        asked = {c["function"]["name"]: c["id"] for m in since if m.get("tool_calls") for c in m["tool_calls"]}
        calls = []
        if not turn:
            remember = re.search(r"remember (?:the )?([\w ]+?)(?:,| then|$)", request)
            if remember and "create_entities" in offered:
                entity = {"name": remember.group(1).strip().title(), "entityType": "topic", "observations": [request]}
                calls.append(self._call("create_entities", {"entities": [entity]}))
            if "note" in request and "list_allowed_directories" in offered:
                calls.append(self._call("list_allowed_directories", {}))
            numbers = re.search(r"add (-?\d+) and (-?\d+)", request)
            if numbers and "get-sum" in offered:
                calls.append(self._call("get-sum", {"a": int(numbers.group(1)), "b": int(numbers.group(2))}))
        elif "list_allowed_directories" in asked and "read_text_file" not in asked:
            listing = results.get(asked["list_allowed_directories"], "")
            directory = next((line.strip() for line in listing.splitlines() if line.strip().startswith("/")), "")
            calls.append(self._call("read_text_file", {"path": os.path.join(directory, "note.txt")}))
        if calls:
            return {"role": "assistant", "content": None, "tool_calls": calls}
        summary = "; ".join(f"{m['content']}" for m in turn) or "I have no tool for that."
        return {"role": "assistant", "content": f"Done. {summary}"}


async def chat(config: str, model: Any) -> None:
    async with ClientSessionGroup() as group:
        statuses = await group.connect_mcp_json(config)
        for status in statuses:
            note = f" ({status['error']})" if "error" in status else ""
            print(f"server {status['name']}: {status['state']}{note}", file=sys.stderr)
        tools = group.tools_for(API)
        print(f"{len(tools)} tools offered to the model", file=sys.stderr)
        messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or line.strip().lower() in ("quit", "exit"):
                return
            messages.append({"role": "user", "content": line.strip()})
            while True:
                reply = await model.complete(messages, tools)
                messages.append(reply)
                calls = reply.get("tool_calls") or []
                if not calls:
                    print(f"assistant: {reply.get('content')}", flush=True)
                    break
                for call in calls:
                    name, arguments = call["function"]["name"], json.loads(call["function"]["arguments"] or "{}")
                    print(f"tool call: {name} {json.dumps(arguments)}", flush=True)
                    try:
                        result = await group.call_tool(name, arguments)
                    except Exception as error:  # the model hears about a failed call
                        result = {"content": [{"type": "text", "text": str(error)}], "isError": True}
                    messages.extend(tool_result(API, call["id"], result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="mcp.json", help="the mcp.json file (default: ./mcp.json)")
    parser.add_argument("--scripted", action="store_true", help="use the scripted model even with a key")
    args = parser.parse_args()
    key = os.environ.get("OPENAI_API_KEY")
    model = OpenAIModel(key) if key and not args.scripted else ScriptedModel()
    asyncio.run(chat(args.config, model))


if __name__ == "__main__":
    main()
