"""The one error tree. Every error mcptest raises on purpose roots here.

* McpTestError
  + UsageError            bad command line or action input (exit 2)
  + SuiteError            a suite file cannot be loaded or validated (exit 2)
  + ServerNotReadyError   a server never became ready (exit 3)
  + ServerError           a ready server crashed, hung or broke protocol (its tests error)
  + JudgeError            a judge call failed mechanically (its assertion becomes judge_error)
  + ReportError           a saved report cannot be read

A failed check is data (`passed=False`), never an exception. Exceptions become exit codes in
one place only: `mcptest.cli.error_handler`.
"""

from __future__ import annotations

from dataclasses import dataclass


class McpTestError(Exception):
    """Root of every error mcptest raises on purpose."""


class UsageError(McpTestError):
    """The command line or an action input is invalid."""


@dataclass(frozen=True)
class SourcePos:
    """Where in a suite file something is (1-based line and column)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class SuiteError(McpTestError):
    """A suite file is invalid. Carries the position and the key path of the offending node."""

    def __init__(self, message: str, pos: SourcePos | None = None, key_path: str = "") -> None:
        self.message = message
        self.pos = pos
        self.key_path = key_path
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.pos}: " if self.pos else ""
        key = f"{self.key_path}: " if self.key_path else ""
        return f"{where}{key}{self.message}"


class SuiteErrors(McpTestError):
    """Several suite errors found in one pass; each is reported on its own line."""

    def __init__(self, errors: list[SuiteError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


class ServerError(McpTestError):
    """A server failed after it was ready, or while connecting (see `ServerNotReadyError`)."""


class ServerNotReadyError(ServerError):
    """A server never became ready: spawn failure, early exit, startup timeout, refused URL."""


class JudgeError(McpTestError):
    """A judge call failed mechanically (transport, timeout, unparseable verdict)."""


class ReportError(McpTestError):
    """A saved report cannot be read or is of an unknown version."""
