"""What every Python echo server of the benchmark shares: the filler tools, the `report`
tool's models and work, and the choice of transport, so the servers differ only in the SDK
they import.

`python echo_X.py` serves stdio; `python echo_X.py http PORT` serves Streamable HTTP on
127.0.0.1:PORT at /mcp. `MCP_BENCH_TOOLS=N` registers N filler tools beside `echo`.
"""

from __future__ import annotations

import os
import sys
from typing import Literal

from pydantic import BaseModel

# The `report` tool (issue 17; benches/README.md, "The realistic tool"): ten arguments
# validated against a schema with a nested object and an array, a structured result checked
# against an outputSchema, and a text result of 64 KiB. Every implementation computes the
# same result from the same arguments (benches/e2e/check_tools.py compares them).

Level = Literal["low", "medium", "high"]

REPORT_BYTES = 65536
# Built once: the text is the per-call header line followed by this body, cut to 64 KiB.
_BODY = "".join(f'{i:05} The quick brown fox jumps over the "lazy" dog.\n' for i in range(1300))


class Owner(BaseModel):
    name: str
    email: str
    age: int


class OwnerSummary(BaseModel):
    name: str
    domain: str
    adult: bool


class Report(BaseModel):
    ref: str
    accepted: bool
    score: float
    tag_count: int
    owner: OwnerSummary
    priority: int
    bytes: int


def report_result(
    ref: str,
    title: str,
    count: int,
    ratio: float,
    enabled: bool,
    level: str,
    tags: list[str],
    owner: Owner,
    note: str,
    priority: int,
) -> tuple[dict, str]:
    """The `report` tool's structured result and its 64 KiB text."""
    head = f"report {ref}: {title} ({note})\n"
    text = head + _BODY[: REPORT_BYTES - len(head)]
    summary = {
        "ref": ref,
        "accepted": enabled and level != "low",
        "score": count * ratio,
        "tag_count": len(tags),
        "owner": {"name": owner.name, "domain": owner.email.partition("@")[2], "adult": owner.age >= 18},
        "priority": priority,
        "bytes": len(text),
    }
    return summary, text


def filler(text: str) -> str:
    """A filler tool: echoes like `echo`."""
    return text


def register_fillers(server) -> None:
    for i in range(int(os.environ.get("MCP_BENCH_TOOLS", "0"))):
        server.tool(name=f"tool_{i:04}", description=f"Benchmark filler tool number {i}.")(filler)


def run(server, http_kwargs=None) -> None:
    register_fillers(server)
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]), **(http_kwargs or {}))
    else:
        server.run()
