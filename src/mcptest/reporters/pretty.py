"""The terminal format: a header, one block per row (`reporters/pretty_row.py`), then a summary.

Colour is opt-in (`color=True`); the CLI decides (TTY, NO_COLOR). Every server or model string
goes through `escape.terminal`, so a tool answer cannot move the cursor or recolour the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters import (
    DEFAULTS,
    RenderOptions,
    cascade_display,
    corrected_display,
    display,
    headline,
    seats,
)
from mcptest.reporters.comparison import LEADING, corrected_lines, summary_line
from mcptest.reporters.lint_summary import lint_only
from mcptest.reporters.pretty_row import PrettyOut, safe, stderr_block, test_block
from mcptest.reporters.repeats_display import adaptive_line
from mcptest.reporters.selection_display import change_lines

if TYPE_CHECKING:
    from mcptest.report.models import Report


def _header(out: PrettyOut, report: Report) -> None:
    s = report.summary
    what = (f"{len(report.servers)} server(s)" if lint_only(report)  # lint runs no tests
            else f"{s.counts.total} test(s)")
    out.add(out.paint(f"mcptest {safe(report.tool.version, 40)}", "bold")
            + f" · {len(report.suites)} suite file(s) · {what}")
    if s.projected_judge_calls:
        bound = f", cost bound {display.cost(s.cost_bound_usd)}" if s.cost_bound_usd else ""
        out.add(f"projected judge calls: {s.projected_judge_calls}{bound}")
    for server in report.servers:
        if server.status == "ready":
            continue
        out.add(out.paint(f"server {safe(server.name, 80)} {server.status}", "error")
                + (f": {safe(server.error)}" if server.error else ""))
        if server.stderr_tail:
            stderr_block(out, server.stderr_tail, 1)
    out.add()


def _new_warnings(report: Report) -> list[str]:
    """The report's warnings but those the header already showed as a server's error."""
    shown = {server.error for server in report.servers if server.status != "ready"}
    return [w for w in report.warnings if w not in shown]


def _summary(out: PrettyOut, report: Report) -> None:
    s = report.summary
    out.add()
    out.add(out.paint("─" * 60, "dim"))
    counts = ", ".join(display.summary_bits(report))
    if lint_only(report):  # findings, not tests: no "0 passed of 0", no judge line
        out.add(out.paint(f"lint: {counts} in {display.duration(s.duration_ms)}", "bold"))
        for warning in _new_warnings(report):
            out.add(out.paint(f"warning: {safe(warning)}", "medium"))
        out.add(out.paint(f"exit {s.exit_code}: {display.exit_text(report)}",
                          "passed" if s.exit_code == 0 else "failed"))
        return
    out.add(out.paint(f"{counts} of {s.counts.total} in {display.duration(s.duration_ms)}", "bold"))
    stopped = " (budget stopped the run)" if s.budget_stopped else ""
    unreachable = f" ({s.deferred_judges} judge vote(s) unreachable)" if s.deferred_judges else ""
    out.add(f"{s.counts.deferred} deferred{unreachable} · {s.cache_hits} cache hit(s) · "
            f"{s.judge_calls} judge "
            f"call(s) · cost {display.cost_line(report)}{stopped}")
    if (tapes := display.cassette_line(report)) is not None:
        out.add(tapes)
    if (cascade := cascade_display.run_line(report)) is not None:
        out.add(safe(cascade, 400))
    if (adaptive := adaptive_line(report)) is not None:
        out.add(safe(adaptive, 1500))
    for line in corrected_display.judge_lines(report):
        out.add(safe(line, 600))
    review = display.to_review(report)
    if review or s.run_agreement is not None:
        out.add(f"{review} to review (escalated juries) · {display.run_agreement_text(s)}")
    if s.run_agreement_labels is not None:
        out.add(f"run agreement on labels α (nominal) {display.num(s.run_agreement_labels)}")
    gaps = display.gap_rows(report)
    if gaps:
        out.add("gaps: " + ", ".join(f"{safe(k, 60)} {v}" for k, v, _ in gaps))
        for k, _, advice in gaps:
            if advice:
                out.add(f"{safe(k, 60)}: {advice}", 1)
    for test, jury in seats.juries_with_lost_seats(report):  # never silent, even in a passing jury
        out.add(out.paint(f"juror seat lost: {safe(test.name, 120)}: "
                          f"{safe(seats.lost_text(jury), 400)}", "error"))
    for warning in _new_warnings(report):
        out.add(out.paint(f"warning: {safe(warning)}", "medium"))
    if s.interrupted:
        out.add(out.paint(f"interrupted: {safe(s.interrupted)}", "error"))
    style = "passed" if s.exit_code == 0 else "failed"  # the last line: what happened
    out.add(out.paint(f"{headline.outcome(report)} · exit {s.exit_code}: "
                      f"{display.exit_text(report)}", style))


def _lint(out: PrettyOut, report: Report) -> None:
    """`mcptest lint` findings, errors first, and each server's protocol era (docs/lint.md)."""
    lint = report.lint
    if lint is None:
        return
    for server in report.servers:
        if server.status == "ready":
            out.add(f"server {safe(server.name, 80)}: {server.protocol_version or '?'} "
                    f"({server.era or 'era unknown'}), {len(server.tools)} tool(s)")
    style = {"error": "error", "warning": "medium", "note": "dim"}
    for f in sorted(lint.findings, key=lambda f: ("error", "warning", "note").index(f.level)):
        label = "expected" if f.expected else f.level
        where = f"{f.location.file}:{f.location.line}"
        out.add(out.paint(f"{label:<8} {f.rule}", style[f.level])
                + f" {safe(where, 120)} {safe(f.server or '', 80)}: {safe(f.message)}")
    for checked in dict.fromkeys(c.server for c in lint.checks):  # docs/conformance.md
        mine = [c for c in lint.checks if c.server == checked]
        counts = ", ".join(f"{sum(c.status == k for c in mine)} {k}"
                           for k in ("passed", "failed", "skipped"))
        out.add(f"conformance {safe(checked, 80)}: {counts}")
    out.add(f"lint: {len(lint.findings)} finding(s), {lint.suppressed} suppressed, "
            f"{lint.messages_checked} wire message(s) checked")


def _comparison(out: PrettyOut, report: Report) -> None:
    """Against the baseline: each class that has rows, what the change broke first."""
    c = report.comparison
    if c is None:
        return
    out.add()
    for line in change_lines(c):  # a description change reads first (docs/selection.md)
        out.add(out.paint(safe(line, 300), "bold"))
    out.add(out.paint(f"against {safe(c.baseline, 200)}: {summary_line(c)}", "bold"))
    if c.note:
        out.add(safe(c.note), 1)
    for line in corrected_lines(c):
        out.add(safe(line, 400), 1)
    for key, _, label in LEADING:
        rows = [r for r in c.rows if r.change == key or (key == "regressed" and r.gated)]
        if rows:
            names = ", ".join(safe(r.name, 80) for r in rows[:10])
            more = f" … and {len(rows) - 10} more" if len(rows) > 10 else ""
            out.add(f"{label.lower()} ({len(rows)}): {names}{more}", 1)



def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The terminal report; ANSI colour only when `options.color` is true."""
    out = PrettyOut(options.color)
    _header(out, report)
    said = frozenset(s.error for s in report.servers  # a stderr tail, not a short cause
                     if s.status != "ready" and s.error and "stderr: " in s.error)
    for test in report.tests:
        test_block(out, test, said)
    _lint(out, report)
    _comparison(out, report)
    _summary(out, report)
    return "\n".join(out.lines) + "\n"
