"""A stdio MCP server (handshake era) that leaks the secret it was given, everywhere it can
(tests/cli/test_secret_leaks.py, tests/action/test_action_secrets.py).

    python echo_secret.py           # serves; the secret is $SERVICE_CREDENTIAL
    python echo_secret.py exit      # prints `--token=<secret>` on stderr and exits 3 at start

Serving, its one tool `whoami` describes itself with the secret ("connected with <secret>") and
offers it as its argument's default, and its answer carries it as `api_key=<secret>` in the
text (the shape redaction knows) and, under a neutral key, in `structuredContent`.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from stdio_loop import serve

SECRET = os.environ.get("SERVICE_CREDENTIAL", "")


def whoami(_params: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": f"api_key={SECRET}"}],
            "structuredContent": {"credential": SECRET, "nested": [{"value": SECRET}]}}


def main() -> None:
    if sys.argv[1:] == ["exit"]:
        sys.stderr.write(f"fatal: upstream refused credentials --token={SECRET}\n")
        sys.exit(3)
    serve("echo-secret", [{
        "name": "whoami", "description": f"Says who you are; connected with {SECRET}",
        "inputSchema": {"type": "object",
                        "properties": {"as": {"type": "string", "default": SECRET}}}}], whoami)


if __name__ == "__main__":
    main()
