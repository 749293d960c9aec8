"""How the human formats show judged rates beside their corrected values (docs/statistics.md):
one line per judge over the run, and a repeated row's own. Decided once, so the terminal, the
PR comment and the HTML report say the same. Record paths come from the suite: each format
escapes them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.escape import md_inline

if TYPE_CHECKING:
    from mcptest.report.models import CorrectedRate, JudgeCorrection, Report, TestResult


def _figures(c: CorrectedRate) -> str:
    return (f"corrected {c.rate:.2f} [{c.ci95.low:.2f}, {c.ci95.high:.2f}] "
            f"(judge sensitivity {c.sensitivity:.2f}, specificity {c.specificity:.2f})")


def judge_line(j: JudgeCorrection) -> str:
    """`judge judge.calibration.json: 25 test(s), judged pass rate 0.84 → corrected 0.71
    [0.62, 0.79] (…)`, or the raw rate and why it stands alone."""
    who = f"judge {j.record}" if j.record else "judges without a calibration record"
    raw = "no verdict" if j.raw_rate is None else f"judged pass rate {j.raw_rate:.2f}"
    head = f"{who}: {j.tests} test(s), {raw}"
    if j.corrected is not None:
        return f"{head} → {_figures(j.corrected)}"
    return f"{head} ({j.reason})" if j.reason else head


def judge_lines(report: Report) -> list[str]:
    return [judge_line(j) for j in report.summary.corrected]


def row_text(test: TestResult) -> str | None:
    """A repeated row's judged verdicts and their corrected rate; None for a row judged once
    (one verdict corrected is a wide interval, not news: the JSON report keeps it)."""
    shown = [c for c in test.corrected if c.judged > 1]
    if not shown:
        return None
    return " · ".join(f"judged {c.judged_passed:g}/{c.judged} → {_figures(c)}" for c in shown)


def comment_block(report: Report) -> str:
    """`### Judged pass rates, corrected`: a table row per judge, or "" without judges."""
    rows = report.summary.corrected
    if not rows:
        return ""
    if all(j.record is None for j in rows):  # no judge is calibrated: one line says so
        return f"{judge_line(rows[0])}.\n\n" if rows[0].tests else ""
    out = ["### Judged pass rates, corrected for the judge's errors", "",
           "| judge (calibration record) | tests | judged | corrected [95% CI] | note |",
           "|---|---|---|---|---|"]
    for j in rows:
        who = j.record or "(none)"
        raw = "" if j.raw_rate is None else f"{j.raw_rate:.2f}"
        if j.corrected is not None:
            c = j.corrected
            fixed = f"{c.rate:.2f} [{c.ci95.low:.2f}, {c.ci95.high:.2f}]"
            note = f"sensitivity {c.sensitivity:.2f}, specificity {c.specificity:.2f}"
        else:
            fixed, note = "—", j.reason or ""
        out.append(f"| {md_inline(who, 200)} | {j.tests} | {raw} | {fixed} | "
                   f"{md_inline(note, 300)} |")
    return "\n".join(out) + "\n\n"
