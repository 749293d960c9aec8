"""The only place where exceptions become exit codes and messages (no traceback reaches a user)."""

from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager
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


def _message_and_code(e: BaseException) -> tuple[str, int]:
    if isinstance(e, SuiteErrors | SuiteError):
        return f"error: {e}", ExitCode.USAGE_ERROR
    if isinstance(e, UsageError | ReportError):
        return f"error: {e}", ExitCode.USAGE_ERROR
    if isinstance(e, OutputNotWritten):  # the disk's fault: neither a verdict nor a bug
        return f"error: {e}", ExitCode.OUTPUT_NOT_WRITTEN
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
    except (Exception, KeyboardInterrupt) as e:
        message, code = _message_and_code(e)
        message = _redacted(message)
        if os.environ.get("MCPTEST_DEBUG"):
            traceback.print_exc()
        first, *rest = message.splitlines() or [message]
        print(first, file=sys.stderr)
        for line in rest:  # one error per line, each with its own prefix
            print(f"error: {line}", file=sys.stderr)
        outcome.code = code
