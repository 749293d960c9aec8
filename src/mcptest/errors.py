"""The one error tree. Every exception class mcptest defines roots here, in this drawing
(tests/test_error_tree.py walks src/mcptest and fails on a class that does not, or that the
drawing leaves out or puts under another parent).

    McpTestError              root; never raised itself
    ├── UsageError            bad command line or action input                       → exit 2
    │   ├── SuiteTooLarge     `mcptest init`: the surface does not fit one suite file
    │   └── TooFewLabels      `mcptest calibrate --target-agreement`: too few labels
    ├── SuiteError            a suite file cannot be loaded or validated             → exit 2
    │   ├── UnknownRubric     a rubric `ref` names no rubric (the loader says so first)
    │   ├── TargetSyntaxError a target path is malformed
    │   └── TemplateError     a resource test's URI template is invalid (its row says so)
    ├── SuiteErrors           several of those, one per line                         → exit 2
    ├── ReportError           a saved report cannot be read                          → exit 2
    │   ├── ReadBackError     a file read back (report, artifact, labels, table) is refused,
    │   │   │                 with its file, line or JSON path (`mcptest.readback`)
    │   │   └── FileRefused   refused for its type or size, before any parsing
    │   ├── RecordError       a calibration record cannot be read (the gate: `unreadable`)
    │   ├── BaselineApiError  the baseline artifact cannot be fetched (the run: no baseline)
    │   └── PullFilesError    a pull request's changed files cannot be listed whole (the run:
    │                         as without the list)
    ├── OutputNotWritten      a report or output file could not be written after its
    │                         path was checked (a full disk, an I/O error)           → exit 74
    ├── ServerNotReadyError   a server never became ready                            → exit 3
    │                         (via its tests' rows: the runner records them, the run goes on)
    ├── NegotiationError      a server agreed on no protocol era (its connection fails)
    ├── AnswerTooLarge        a server's HTTP answer passed the size bound (a transport error)
    ├── BudgetRefused         a model call was not sent: its worst case would cross the
    │                         `--max-cost` cap                               → assertion `budget`
    ├── JudgeError            a model call failed mechanically               → assertion error
    │   ├── ProviderError     the provider failed or did not answer (kind, status, Retry-After),
    │   │                     mapped from litellm's exceptions where litellm is called
    │   ├── RetriesExhausted  every allowed try failed (in `mcptest.llm.retry`)
    │   ├── ParseFailure      the reply holds no valid verdict
    │   ├── CutOff            the reply was cut at the token limit
    │   └── OverDeclared      a custom judge reported spending above its `max_cost_usd`
    ├── NotRecorded           a model request its cassette cannot answer (`--models replay`;
    │                         in `mcptest.llm.cassette`)                         → row gap `replay`
    ├── RegexTimeout          a suite regex ran past its time bound        → check undecided
    ├── TestFailed            a suite row did not pass under the pytest plugin (pytest says so)
    └── InjectedFault         raised on purpose by tests: an internal error          → exit 70

A failed check is data (`passed=False`), never an exception. Exceptions become exit codes in
one place only: `mcptest.cli.error_handler`; anything that is not an `McpTestError` of a
kind drawn with an exit code is a bug of ours and exits 70 (docs/decisions.md, "Exit codes"),
and a fault during a run is one whatever its class (the report says `internal_error`). The
classes without an exit code are caught where they are raised and become data (a row, a vote, a
note). A class keeps a second, standard base where other code catches it by that base: ParseFailure,
TargetSyntaxError and TemplateError are ValueErrors, UnknownRubric a KeyError, AnswerTooLarge
httpx2's StreamError (the SDK's parse-failure path), InjectedFault a RuntimeError.

`run/reaper.py` is outside the tree on purpose: it runs as a standard-library-only script
(`python -I -S`) that cannot import mcptest, and its private `_Stop` never leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


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


class ServerNotReadyError(McpTestError):
    """A server never became ready: spawn failure, early exit, startup timeout, refused URL."""


class JudgeError(McpTestError):
    """A model call failed mechanically (transport, timeout, rejected request)."""


FailureKind = Literal["timeout", "transport", "unreachable", "rate_limit", "server", "client",
                      "unparseable", "truncated"]


class ProviderError(JudgeError):
    """The provider answered with a failure, or did not answer. `kind` decides retrying."""

    def __init__(self, kind: FailureKind, message: str, *, status: int | None = None,
                 retry_after: float | None = None, unsent: bool = False) -> None:
        self.kind = kind
        self.status = status
        self.retry_after = retry_after
        self.unsent = unsent or kind == "unreachable"
        """Nothing reached the provider (refused, or a request that could not be formed): not
        billed and not counted as a request sent."""
        self.format_rejected = False
        """A 4xx whose words name the structured-output format: the one rejection re-sent
        with a weaker format (docs/judges.md, "Failures and retries")."""
        super().__init__(message)


class BudgetRefused(McpTestError):
    """A model call was not sent because its worst case would cross the cap."""

    def __init__(self, needed: float, spent: float, reserved: float, cap: float, *,
                 stopped: bool = False) -> None:
        self.needed, self.spent, self.reserved, self.cap = needed, spent, reserved, cap
        self.stopped = stopped
        if stopped:
            text = (f"budget: not sent, the run stopped spending when an earlier call would "
                    f"have crossed the ${cap:.4f} cap (spent ${spent:.6f})")
        else:
            text = (f"budget: worst case ${needed:.6f} would cross the ${cap:.4f} cap "
                    f"(spent ${spent:.6f}, in flight ${reserved:.6f})")
        super().__init__(text)


class OutputNotWritten(McpTestError):
    """A report or output file could not be written once its path had passed the check made
    before the run (`cli/output_paths.py`): the disk's fault, so exit 74, never 70 (a bug of
    ours); one line per output, each naming its format or file and the system's reason."""


class ReportError(McpTestError):
    """A saved report cannot be read or is of an unknown version."""


class ReadBackError(ReportError):
    """A file mcptest reads back was refused: not a regular file, too large, too deep, not JSON,
    not the schema, a value out of range (docs/reports.md, "Reading reports back").

    `where` is `file`, `file:line:col` or `file: json.path`; the message never quotes the file's
    content beyond the key that is wrong.
    """

    def __init__(self, message: str, file: str, *, line: int | None = None,
                 column: int | None = None, path: str = "") -> None:
        self.message, self.file, self.line, self.column, self.path = (
            message, file, line, column, path)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        if self.path:
            where += f": {self.path}"
        return f"{where}: {self.message}"
