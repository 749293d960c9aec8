"""A stdio MCP server (handshake era) that lists COUNT tools: the first is named `1e3` and the first
two take a string argument whose example YAML would read as a number
(tests/starter/test_init_command.py).

    python many_tools.py COUNT
"""

from __future__ import annotations

import sys

from stdio_loop import serve


def main() -> None:
    code = {"type": "object", "required": ["code"],
            "properties": {"code": {"type": "string", "examples": ["0o17"]}}}
    serve("many-tools", [{"name": "1e3" if i == 0 else f"tool_{i}",
                          "inputSchema": code if i < 2 else {"type": "object"}}
                         for i in range(int(sys.argv[1]))])


if __name__ == "__main__":
    main()
