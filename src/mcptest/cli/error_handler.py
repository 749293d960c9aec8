"""The only place where exceptions become exit codes and messages (no traceback reaches a user)."""

from __future__ import annotations

import errno
import os
import sys
import traceback
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.errors import (
    OutputNotWritten,
    ReportError,
    ServerNotReadyError,
    SuiteError,
    SuiteErrors,
    UsageError,
)
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    from collections.abc import Iterator


@dataclass
class Outcome:
    """The exit code `handle_errors` leaves for the command (its own, or an error's)."""

    code: int = ExitCode.OK


DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""A write the machine refused: a full disk or quota, a file past its size limit, an I/O
error. Whichever file it was (a report, stdout redirected to a file, a cache entry), it is the
machine's fault and exit 74, never 70 (docs/decisions.md, "Exit codes")."""


def _message_and_code(e: BaseException) -> tuple[str, int]:
    if isinstance(e, SuiteErrors | SuiteError):
        return f"error: {e}", ExitCode.USAGE_ERROR
    if isinstance(e, UsageError | ReportError):
        return f"error: {e}", ExitCode.USAGE_ERROR
    if isinstance(e, OutputNotWritten):  # the disk's fault: neither a verdict nor a bug
        return f"error: {e}", ExitCode.OUTPUT_NOT_WRITTEN
    if isinstance(e, OSError) and e.errno in DISK_FULL:
        where = f" to {e.filename}" if e.filename else ""
        return f"error: cannot write{where}: {e.strerror or e}", ExitCode.OUTPUT_NOT_WRITTEN
    if isinstance(e, ServerNotReadyError):
        return f"error: {e}", ExitCode.SERVER_NOT_READY
    if isinstance(e, KeyboardInterrupt):
        return "interrupted", ExitCode.INTERRUPTED
    # Anything else, our own error classes included, is a bug of ours: never a test verdict.
    return (f"internal error: {type(e).__name__}: {e} (set MCPTEST_DEBUG=1 for a traceback)",
            ExitCode.INTERNAL_ERROR)


def _redacted(message: str) -> str:
    """Without the environment's secrets and key-shaped tokens: a server that never started
    (`mcptest init`) may quote its own `--token=…` in the stderr the message carries."""
    from mcptest.report.redact import redact_text, secret_values

    return redact_text(message, secret_values(os.environ))


@contextmanager
def handle_errors() -> Iterator[Outcome]:
    outcome = Outcome()
    try:
        yield outcome
    except BrokenPipeError:  # the reader of stdout stopped reading (`| head`): nobody is left
        quiet_stdout()  # to tell, and what it did not read was not written: exit 74
        outcome.code = ExitCode.OUTPUT_NOT_WRITTEN
    except (Exception, KeyboardInterrupt) as e:
        message, code = _message_and_code(e)
        message = _redacted(message)
        if os.environ.get("MCPTEST_DEBUG"):
            traceback.print_exc()
        first, *rest = message.splitlines() or [message]
        to_stderr(first)
        for line in rest:  # one error per line, each with its own prefix
            to_stderr(f"error: {line}")
        outcome.code = code


def quiet_stdout() -> None:
    """Point stdout at the null device, so that the exit's own flush of what was left in it
    does not fail again on the closed pipe."""
    if sys.stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file: nothing to point elsewhere
        pass


def to_stderr(line: str) -> None:
    """One line on stderr if it can be written: with stderr closed (`2>&-`), its reader gone
    or its disk full, the line is dropped and the run, its reports and its exit code go on as
    they are (a log line is no result; docs/decisions.md, "Exit codes")."""
    stream = sys.stderr
    if stream is None:  # print(file=None) would write to stdout, into a report
        return
    with suppress(OSError, ValueError):
        print(line, file=stream, flush=True)
