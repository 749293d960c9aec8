"""Docker entrypoint of the mcptest Action.

With no arguments (how GitHub starts a Docker action whose action.yml passes none) it runs the
Action: inputs from INPUT_*, outputs, summary, annotations, PR comment. With arguments it is the
plain CLI, so `docker run IMAGE run suite.yml` works locally.
"""

from __future__ import annotations

import sys

from mcptest.action.main import entrypoint

if __name__ == "__main__":
    sys.exit(entrypoint(sys.argv[1:]))
