"""The lint part of the PR comment and job summary: errors first, so breaking surface changes
lead the comment (docs/lint.md). Untrusted text (server descriptions quoted in findings) leaves
only through the markdown escaping of `reporters/escape.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.escape import md_inline

if TYPE_CHECKING:
    from mcptest.report.models import Report

MAX_ROWS = 100
MARK = {"error": "❌", "warning": "⚠️", "note": "ℹ️"}
ORDER = ("error", "warning", "note")


def lint_block(report: Report) -> str:
    """`### Lint` with one table row per finding (at most MAX_ROWS), or "" without a lint run."""
    lint = report.lint
    if lint is None:
        return ""
    eras = ", ".join(f"{md_inline(s.name, 80)}: {s.era}" for s in report.servers if s.era)
    counts = {lv: sum(f.level == lv for f in lint.findings) for lv in ORDER}
    head = (f"### Lint\n\n{counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['note']} note(s); {lint.suppressed} suppressed; "
            f"{lint.messages_checked} wire message(s) checked"
            + (f"; era: {eras}" if eras else "") + "\n\n")
    if not lint.findings:
        return head
    rows = ["| | rule | server | finding |", "|---|---|---|---|"]
    ordered = sorted(lint.findings, key=lambda f: ORDER.index(f.level))
    for f in ordered[:MAX_ROWS]:
        mark = "✔️ expected" if f.expected else MARK[f.level]
        rows.append(f"| {mark} | `{f.rule}` | {md_inline(f.server or '', 80)} | "
                    f"{md_inline(f.message, 400)} |")
    more = len(ordered) - MAX_ROWS
    tail = f"\n… and {more} more finding(s) in the JSON report.\n" if more > 0 else ""
    return head + "\n".join(rows) + "\n" + tail + "\n"
