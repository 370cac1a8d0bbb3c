"""The seed quick-start server with its import pointed at ferrymcp (or, for comparison,
at the official SDK's v2 path), written to a file that can run as a script."""

from pathlib import Path

SEED = Path(__file__).resolve().parent / "seed" / "quickstart.py"
OFFICIAL_IMPORT = "from mcp.server.fastmcp import FastMCP"
IMPORTS = {
    "ferrymcp": "from ferrymcp.server.fastmcp import FastMCP",
    "official-v2": "from mcp.server.mcpserver import MCPServer as FastMCP",
}


def seed_with_import(target: str, directory: Path) -> Path:
    source = SEED.read_text()
    assert source.count(OFFICIAL_IMPORT) == 1
    path = directory / f"quickstart_{target.replace('-', '_')}.py"
    path.write_text(source.replace(OFFICIAL_IMPORT, IMPORTS[target]))
    return path
