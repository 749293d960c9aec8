"""`make test`: lint beside the tests, its output after theirs; either failing fails the run.

A cold mypy is a minute of one core that the tests' waits leave free (docs/architecture.md,
"Tests"). Lint runs in a session of its own and ends with the tests: an interrupt (Ctrl-C reaches
the terminal's foreground group, which lint is not in) or a SIGTERM stops its whole group too,
and its log, a temporary file, goes however the run ends.

    python .ci/lint_beside_tests.py MAKE
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(make: str) -> int:
    signal.signal(signal.SIGTERM, _stop)
    with tempfile.TemporaryFile() as log:
        lint = subprocess.Popen([make, "--no-print-directory", "lint"], stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            tests = subprocess.call([make, "--no-print-directory", "pytest"])
            linted = lint.wait()
        finally:
            if lint.poll() is None:  # the tests were interrupted: lint's whole group goes too
                os.killpg(lint.pid, signal.SIGTERM)
                lint.wait()
        log.seek(0)
        sys.stdout.flush()
        sys.stdout.buffer.write(log.read())
        sys.stdout.flush()
    if linted:
        print(f"make test: lint failed (exit {linted})", file=sys.stderr)
    return 1 if tests or linted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
