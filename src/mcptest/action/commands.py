"""GitHub workflow commands: escaping, annotations and stop-commands.

The runner parses every log line that starts with `::`. Server and model text is untrusted, so
anything of theirs we echo goes between `::stop-commands::TOKEN` and `::TOKEN::`, and every value
we put into a command of our own is escaped the way actions/toolkit escapes it.
"""

from __future__ import annotations

import secrets
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, TextIO

from pydantic import BaseModel, ConfigDict

from mcptest.reporters.escape import terminal

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.report.models import Report, TestResult

Level = Literal["error", "warning", "notice"]

#: GitHub shows at most this many annotations per level per step; the rest are dropped silently.
ANNOTATIONS_PER_LEVEL = 10
#: Keep a single annotation readable in the checks UI.
MESSAGE_LIMIT = 4_000


def escape_data(text: str) -> str:
    """Escape the message part of a workflow command (`%` first, then CR and LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (`file=`, `title=`): data escaping plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str | int | None) -> str:
    """One workflow command line, e.g. `::error file=a.yml,line=3::msg`. Control characters
    and bidi overrides (server text can carry U+202E) are shown as escapes, not obeyed."""
    message = terminal(message, keep_newlines=True)
    props = ",".join(
        f"{key}={escape_property(terminal(str(value)))}"
        for key, value in properties.items()
        if value is not None and value != ""
    )
    head = f"{name} {props}" if props else name
    return f"::{head}::{escape_data(message)}"


class Annotation(BaseModel):
    """One annotation the Action will print for a non-passing test."""

    model_config = ConfigDict(frozen=True)

    level: Level
    message: str
    title: str
    file: str | None = None
    line: int | None = None
    col: int | None = None

    def render(self) -> str:
        message = self.message
        if len(message) > MESSAGE_LIMIT:
            message = message[: MESSAGE_LIMIT - 1] + "…"
        return command(
            self.level, message, file=self.file, line=self.line, col=self.col, title=self.title
        )


_LEVEL_OF_STATUS: dict[str, Level] = {
    "failed": "error",
    "error": "error",
    "skipped": "warning",
    "deferred": "notice",
    "not_yet_available": "warning",
}


def _join_path(prefix: str, path: str) -> str:
    """Suite paths are relative to `working-directory`; annotations need repo-relative paths."""
    while path.startswith("./"):
        path = path[2:]
    if not prefix or prefix in (".", "./") or path.startswith("/"):
        return path
    return f"{prefix.rstrip('/')}/{path}"


def _annotation_for(test: TestResult, level: Level, path_prefix: str) -> Annotation:
    location = test.location
    reason = test.message or ""
    for assertion in test.assertions:
        if assertion.status == test.status or (
            test.status in ("failed", "error") and assertion.status in ("failed", "error")
        ):
            location = assertion.location or location
            detail = assertion.user_message or assertion.message or ""
            reason = f"{assertion.target} {assertion.matcher}: {detail}".strip(": ")
            break
    title = f"mcptest {test.status.replace('_', ' ')}: {test.name}"
    message = reason or f"test {test.status.replace('_', ' ')}"
    return Annotation(
        level=level,
        message=message,
        title=title,
        file=_join_path(path_prefix, location.file),
        line=location.line,
        col=location.column,
    )


def annotations_for(
    report: Report, path_prefix: str = ""
) -> tuple[list[Annotation], dict[str, int]]:
    """Annotations for the first non-passing tests, at most 10 per level, and how many were left.

    Failures and errors are errors; skips, not-yet-available and escalated jury verdicts that
    passed are warnings (a person should look); deferred judges (no key, e.g. on a fork PR) are
    notices, since they do not fail the run.
    """
    kept: list[Annotation] = []
    left: dict[str, int] = {}
    used: dict[str, int] = {}
    for test in report.tests:
        level = _LEVEL_OF_STATUS.get(test.status)
        if level is None and _escalated(test):
            level = "warning"
        if level is None:
            continue
        if used.get(level, 0) >= ANNOTATIONS_PER_LEVEL:
            left[level] = left.get(level, 0) + 1
            continue
        used[level] = used.get(level, 0) + 1
        annotation = _annotation_for(test, level, path_prefix)
        if test.status == "passed":
            annotation = annotation.model_copy(
                update={"title": f"mcptest escalated: {test.name}",
                        "message": "judges disagreed; the verdict stands, a person should look"}
            )
        kept.append(annotation)
    return kept, left


def _escalated(test: TestResult) -> bool:
    details = [a.judge for a in test.assertions] + [test.judge]
    return any(d is not None and d.jury is not None and d.jury.escalate for d in details)


@contextmanager
def stop_commands(stream: TextIO) -> Iterator[str]:
    """Suspend workflow-command parsing while untrusted text is printed; yields the token.

    The token is random per block, so text printed inside cannot guess it and resume parsing.
    """
    token = secrets.token_hex(16)
    stream.write(f"::stop-commands::{token}\n")
    stream.flush()
    try:
        yield token
    finally:
        stream.flush()
        stream.write(f"::{token}::\n")
        stream.flush()


def log(stream: TextIO, *lines: str) -> None:
    """Plain log lines (a baseline note, a command line, a URL): inside a stop-commands block,
    since any of them may carry text read from a file or an API (docs/action.md, "What the log
    shows"); only the Action's own workflow commands are printed outside one."""
    with stop_commands(stream):
        for line in lines:
            stream.write(line + "\n")
