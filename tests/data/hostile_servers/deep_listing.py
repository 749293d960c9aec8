"""A stdio MCP server (handshake era) whose tools/list answer nests DEPTH objects deep in one
tool's input schema (two JSON levels each), past the JSON parser's depth limit for DEPTH 100 and
more: the answer can never be read (tests/run/test_deep_listing.py).

    python deep_listing.py DEPTH
"""

from __future__ import annotations

import sys
from typing import Any

from stdio_loop import serve


def main() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(int(sys.argv[1])):
        schema = {"type": "object", "properties": {"a": schema}}
    serve("deep-listing", [{"name": "deep", "inputSchema": schema}])


if __name__ == "__main__":
    main()
