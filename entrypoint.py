"""Docker entrypoint of the mcptest Action.

With no arguments (how GitHub starts a Docker action whose action.yml passes none) it runs the
Action: inputs from INPUT_*, outputs, summary, annotations, PR comment. With arguments it is the
plain CLI, so `docker run IMAGE run suite.yml` works locally; the Action's modules (httpx and
the rest) are then not even imported.
"""

from __future__ import annotations

import sys


def _main() -> int:
    if sys.argv[1:]:  # the process is the CLI's, as the console script's: its collector, its exit
        from mcptest.cli.main import main

        return main()
    from mcptest.action.main import entrypoint

    return entrypoint([])


if __name__ == "__main__":
    sys.exit(_main())
