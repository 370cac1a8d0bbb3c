"""The client-side benchmark's client on the official Python SDK (PyPI `mcp`, v2, `Client`)."""

from clientbench import run
from mcp import Client, StdioServerParameters

if __name__ == "__main__":
    run(Client, StdioServerParameters)
