"""Process exit codes: a contract CI pipelines branch on (docs/reports.md, "Exit codes")."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    #: Nothing failed (a deferred judge assertion does not fail the run, nor counts as a pass).
    OK = 0
    #: A test failed or errored.
    TESTS_FAILED = 1
    #: Invalid invocation or suite; nothing ran.
    USAGE_ERROR = 2
    #: A server never became ready.
    SERVER_NOT_READY = 3
    #: Nothing failed, but something was skipped or not yet available.
    INCOMPLETE = 4
    #: Stopped by policy: the budget cap kept judge calls from being sent.
    POLICY_STOP = 5
    #: No tests were selected.
    NO_TESTS = 7
    #: A bug of mcptest's own (never a test verdict); reports are still written (sysexits'
    #: EX_SOFTWARE).
    INTERNAL_ERROR = 70
    #: A report or output file could not be written once the run was over, though its path was
    #: checked before it (a full disk, an I/O error): the machine's fault, not a verdict and not
    #: a bug of ours (sysexits' EX_IOERR). The reports that were written hold the run's own code.
    OUTPUT_NOT_WRITTEN = 74
    #: Interrupted by SIGINT/SIGTERM (reports are still written).
    INTERRUPTED = 130
