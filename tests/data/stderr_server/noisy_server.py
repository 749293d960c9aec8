"""A stdio MCP server that writes a line to stderr on start-up and for each call: the tests of
the per-test stderr window (docs/pr-comment.md, "Server stderr") see whose lines are whose."""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("noisy", version="1.0.0")


@server.tool()
def say(word: str) -> str:
    """Write `word` to stderr and answer it."""
    sys.stderr.write(f"noisy: handling {word}\n")
    sys.stderr.flush()
    return word


if __name__ == "__main__":
    sys.stderr.write("noisy: started\n")
    sys.stderr.flush()
    server.run("stdio")
