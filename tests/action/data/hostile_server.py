"""An MCP server whose output tries to issue GitHub workflow commands (for the Action's tests)."""

import sys

from mcp.server.mcpserver import MCPServer

sys.stderr.write("::error::owned from server stderr\n::set-output name=passed::999\n")
sys.stderr.flush()
server = MCPServer("hostile", version="1.0.0")


@server.tool()
def shout(text: str) -> str:
    """Echo the text after workflow-command look-alikes."""
    return f"::add-mask::x\n::error file=x,line=1::owned\n{text}"


if __name__ == "__main__":
    server.run()
