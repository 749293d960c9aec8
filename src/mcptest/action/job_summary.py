"""The markdown for the job summary and the PR comment.

The `md` reporter renders it. Until that reporter is installed this module falls back to a
minimal header and table of the tests that did not pass, with every server- or model-supplied
string escaped so it cannot break the table, ping someone or inject HTML.
"""

from __future__ import annotations

import html
import importlib.util
import re
from typing import TYPE_CHECKING

from mcptest.exit_codes import ExitCode
from mcptest.reporters import REPORTERS, get_reporter

if TYPE_CHECKING:
    from mcptest.report.models import Report

_EXIT_MEANING: dict[int, str] = {
    ExitCode.USAGE_ERROR: "the suite or the Action's inputs are invalid; nothing ran",
    ExitCode.SERVER_NOT_READY: "a server never became ready",
    ExitCode.POLICY_STOP: "stopped by the budget",
    ExitCode.NO_TESTS: "no tests were selected",
    ExitCode.INTERRUPTED: "the run was interrupted",
    ExitCode.INTERNAL_ERROR: "mcptest hit an internal error (a bug of ours, not a test verdict)",
    ExitCode.OUTPUT_NOT_WRITTEN: "a report could not be written (a full disk or an I/O error): "
                                 "the job's log says which",
}
_ICON = {"passed": "✅", "failed": "❌", "error": "💥", "skipped": "⏭️", "deferred": "⏸️",
         "not_yet_available": "🚧"}


def reporter_available(name: str) -> bool:
    """Whether the named reporter module is installed (some formats land later)."""
    module = REPORTERS.get(name)
    return module is not None and importlib.util.find_spec(module) is not None


def escape_cell(text: str, limit: int = 300) -> str:
    """Plain text for one table cell: no HTML, no pipes, no newlines, no @mentions, no fences."""
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    text = html.escape(text, quote=False)
    text = text.replace("|", "\\|").replace("`", "'").replace("\r", " ").replace("\n", " ")
    return re.sub(r"@(?=\w)", "@\u200b", text)


def report_markdown(report: Report) -> str:
    """The `md` reporter's output, or the fallback when it is not installed yet."""
    if reporter_available("md"):
        return get_reporter("md")(report)
    return fallback_markdown(report)


def fallback_markdown(report: Report) -> str:
    counts = report.summary.counts
    bad = counts.failed + counts.error
    icon = "❌" if bad else ("⚠️" if counts.skipped + counts.not_yet_available else "✅")
    cost = f"${report.summary.cost_usd:.4f}"
    if report.summary.max_cost_usd is not None:
        cost += f" of ${report.summary.max_cost_usd:.2f} cap"
    # never a bare "passed" over tests no judge saw (docs/pr-comment.md, "The headline")
    header = (
        f"### {icon} mcptest · {counts.passed} passed · {bad} failed · "
        f"{counts.skipped + counts.not_yet_available} skipped · "
        f"{counts.deferred} not judged (not measured) · {cost}"
    )
    rows = [t for t in report.tests if t.status != "passed"]
    lines = [header, ""]
    if rows:
        lines += ["| | test | why | where |", "|---|---|---|---|"]
        for test in rows:
            why = test.message or next(
                (a.message or "" for a in test.assertions if a.status == test.status), ""
            )
            where = f"{test.location.file}:{test.location.line}"
            lines.append(
                f"| {_ICON[test.status]} | {escape_cell(test.name)} | {escape_cell(why)} "
                f"| {escape_cell(where)} |"
            )
        lines.append("")
    lines.append(
        f"<sub>{counts.total} tests · {report.summary.cache_hits} cache hits · "
        f"exit {report.summary.exit_code} · mcptest {escape_cell(report.tool.version)}</sub>"
    )
    return "\n".join(lines) + "\n"


def no_report_markdown(exit_code: int, suites: list[str]) -> str:
    """What to say when the run ended before any report was written (exit 2, 3, …)."""
    meaning = _EXIT_MEANING.get(exit_code, "the run ended without a report")
    listed = ", ".join(f"`{escape_cell(s)}`" for s in suites)
    return (
        f"### ❌ mcptest · exit {exit_code}: {meaning}\n\n"
        f"Suites: {listed}. The step log has the details.\n"
    )
