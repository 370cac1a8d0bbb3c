"""A stdio MCP server (legacy era) written by hand, whose answers are fixed JSON texts that
no JSON encoder would write that way: spaces, members out of alphabetical order, `1.50`,
`1e2`, escaped characters. Run by cli/tests/proxy.rs behind `ferrymcp bridge` and
`ferrymcp gateway`, which must pass a result on byte for byte, and an error as the same
JSON-RPC error. Needs only the standard library.

Tools: `verbatim` answers RESULT below; `fail` answers the JSON-RPC error ERROR; `frame`
answers a text result holding the request's line as it arrived (what a proxy sent).
"""

import json
import sys

RESULT = (
    '{"structuredContent": {"z": 1.50, "a": 1e2, "m": "caf\\u00e9 \\"q\\""},'
    ' "content" : [{"type":"text","text":"caf\\u00e9 1.50"}], "isError":false}'
)
ERROR = '{"code": -32042, "message": "verbatim refuses", "data": {"b": 2.0, "a": [1, 2]}}'
TOOLS = [
    {"name": "verbatim", "inputSchema": {"type": "object"}},
    {"name": "fail", "inputSchema": {"type": "object"}},
    {"name": "frame", "inputSchema": {"type": "object"}},
]


def answer(request_id: object, member: str) -> None:
    sys.stdout.write('{"jsonrpc":"2.0","id":' + json.dumps(request_id) + "," + member + "}\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue
        method, request_id = message["method"], message["id"]
        if method == "initialize":
            info = {"name": "verbatim", "version": "1"}
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
            answer(request_id, '"result":' + json.dumps(result))
        elif method == "tools/list":
            answer(request_id, '"result":' + json.dumps({"tools": TOOLS}))
        elif method == "tools/call" and message["params"]["name"] == "verbatim":
            answer(request_id, '"result":' + RESULT)
        elif method == "tools/call" and message["params"]["name"] == "fail":
            answer(request_id, '"error":' + ERROR)
        elif method == "tools/call" and message["params"]["name"] == "frame":
            content = [{"type": "text", "text": line.rstrip("\n")}]
            answer(request_id, '"result":' + json.dumps({"content": content}))
        elif method == "ping":
            answer(request_id, '"result":{}')
        else:
            answer(request_id, '"error":' + json.dumps({"code": -32601, "message": f"Method not found: {method}"}))


if __name__ == "__main__":
    main()
