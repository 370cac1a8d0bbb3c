"""The client-side benchmark's client on ferrymcp: client_official.py with its import
changed (`mcp` -> `ferrymcp`)."""

from clientbench import run

from ferrymcp import Client, StdioServerParameters

if __name__ == "__main__":
    run(Client, StdioServerParameters)
