"""What the human formats (pretty, md, html) show, decided once so they agree: marks, labels,
rounding (cost to 4 decimals, scores and alpha to 2), gap advice, exit-code meanings and the list
of findings (non-passing assertions, escalated juries); each format lays them out and escapes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.exit_codes import ExitCode
from mcptest.reporters import lint_summary
from mcptest.reporters.display_words import BAND_LEGEND as BAND_LEGEND
from mcptest.reporters.display_words import EXIT_MEANING, GAP_ADVICE, LEADING_GAPS, VERDICT
from mcptest.reporters.seats import has_lost_seat, lost_text, run_worth
from mcptest.reporters.weights import weight_text

if TYPE_CHECKING:
    from mcptest.report.models import (
        AssertionResult,
        CalibrationNote,
        Confidence,
        JudgeDetail,
        JuryAnalytics,
        Report,
        Status,
        Summary,
        TestResult,
    )

STATUS_ORDER: tuple[Status, ...] = (
    "failed", "flaky", "error", "not_yet_available", "skipped", "deferred", "passed",
)
STATUS_MARK: dict[str, str] = {
    "passed": "✅", "failed": "❌", "error": "💥", "skipped": "⏭️", "deferred": "⏸️",
    "not_yet_available": "🚧", "escalated": "⚠️", "flaky": "🎲",
}
STATUS_LABEL: dict[str, str] = {
    "passed": "passed", "failed": "failed", "error": "error", "skipped": "skipped",
    "deferred": "deferred", "not_yet_available": "not yet available", "escalated": "to review",
    "flaky": "flaky",
}
BAND_MARK: dict[Confidence | None, str] = {"high": "🟢", "medium": "🟡", "low": "🔴", None: "⚪"}
"""None: a report written before juries had a confidence band."""

def cost(usd: float | None) -> str:
    return "" if usd is None else f"${usd:.4f}"


def num(value: float | None) -> str:
    """Scores, alpha, quorum: two decimals; `n/a` when undefined."""
    return "n/a" if value is None else f"{value:.2f}"


def run_agreement_text(s: Summary) -> str:
    """`run agreement α 0.00 (low; 60 juries, 59 unanimous; 95% CI 0.00–1.00; rests on 1.3 …)`."""
    text = f"run agreement α {num(s.run_agreement)}"
    d = s.run_agreement_detail
    if d is None:
        return text
    ci = "" if d.ci95 is None else f"; 95% CI {d.ci95.low:.2f}–{d.ci95.high:.2f}"
    return f"{text} ({d.band}; {d.juries} juries, {d.unanimous} unanimous{ci}{run_worth(d)})"


def calibration_text(c: CalibrationNote | None) -> str:
    """One line on how far a judged verdict can be trusted (docs/calibration.md)."""
    if c is None:
        return ""
    dupes = ""
    if c.warnings:
        worth = "" if c.effective_jurors is None else (
            f", the jury is worth {c.effective_jurors:.1f} independent jurors")
        dupes = f" · ⚠ jurors err together{worth}"
    if c.state == "calibrated":
        ci = "" if c.kappa_ci95 is None else f" [{c.kappa_ci95.low:.2f}, {c.kappa_ci95.high:.2f}]"
        figures = [f"κ {num(c.kappa)}{ci}", f"α {num(c.alpha)}", f"{c.labels} labels"]
        if c.false_fail_rate is not None:
            figures.append(f"false-fail {c.false_fail_rate:.0%}")
        if c.false_pass_rate is not None:
            figures.append(f"false-pass {c.false_pass_rate:.0%}")
        return "calibrated: " + " · ".join(figures) + dupes
    mode = "advisory" if c.advisory else "enforced"
    return f"uncalibrated ({c.state}, {mode}): {c.reason or c.state}{dupes}"


def duration(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def value_text(value: object) -> str:
    """A JSON value as one compact line of text (strings quoted, as in the JSON report)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:
        return repr(value)


def either(names: list[str]) -> str:
    """`A`, `A or B`, `A, B or C`."""
    return " or ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else ""


def exit_text(report: Report) -> str:
    """What the report's exit code means; a lint report's in its own words; exit 0 says
    "every test passed" only when every test did."""
    s = report.summary
    code, c = s.exit_code, s.counts
    if code == ExitCode.OK and 0 < c.total == c.passed and not lint_summary.lint_only(report):
        return "every test passed"
    if (code == ExitCode.TESTS_FAILED and s.fail_on_not_measured and s.not_measured
            and not c.failed + c.error + c.flaky):  # the gate, not a test, failed the run
        return f"{s.not_measured} test(s) not measured, which --fail-on not-measured fails"
    return (lint_summary.LINT_EXIT_MEANING.get(code) if lint_summary.lint_only(report) else
            None) or EXIT_MEANING.get(code, "unknown exit code")


def run_verdict(report: Report) -> tuple[str, str]:
    return VERDICT.get(report.summary.exit_code, ("❔", f"exit {report.summary.exit_code}"))


def gap_rows(report: Report) -> list[tuple[str, int, str | None]]:
    """(category, count, advice) by count, largest first; advice only for the leading ones."""
    ranked = sorted(
        ((k, v) for k, v in report.summary.gaps.items() if v > 0), key=lambda kv: (-kv[1], kv[0])
    )
    return [
        (k, v, GAP_ADVICE.get(k) if i < LEADING_GAPS else None) for i, (k, v) in enumerate(ranked)
    ]


def is_escalated(judge: JudgeDetail | None) -> bool:
    return bool(judge and judge.jury and judge.jury.escalate)


@dataclass(frozen=True)
class ReviewRow:
    """One row of the review table: a non-passing assertion, an escalated jury or a test."""

    test: TestResult
    assertion: AssertionResult | None
    status: Status
    escalated: bool

    @property
    def judge(self) -> JudgeDetail | None:
        return self.assertion.judge if self.assertion else self.test.judge

    @property
    def lost(self) -> bool:
        """A seat of its jury was lost to an error: shown even when the jury passed."""
        return has_lost_seat(self.judge)

    @property
    def mark(self) -> str:
        if self.status == "passed" and (self.escalated or self.lost):
            return STATUS_MARK["escalated"]
        return STATUS_MARK[self.status]

    @property
    def cost_usd(self) -> float:
        return self.assertion.cost_usd if self.assertion else self.test.cost_usd

    @property
    def check(self) -> str:
        """What was checked: matcher, target and, for juries, the tally."""
        a, judge = self.assertion, self.judge
        if a is None:
            if self.test.weighted is not None and self.status != "flaky":
                return "weighted score"
            if judge is None:
                return {"tool": "call", "eval": "eval", "agent": "agent run",
                        "selection": "tool selection"}.get(self.test.kind, self.test.kind)
            score = judge.display_score or num(judge.score)
            return f"{judge.kind} score {score}, threshold {num(judge.threshold)}"
        weight = f" ({weight_text(a)})" if a.weight is not None else ""
        if judge and judge.verdict_kind:  # plurality or mean/median: no quorum tally
            answer = judge.verdict or ("tie" if judge.tally else "no decisive juror")
            return f"{a.matcher} {judge.verdict_kind} {answer}{weight}"
        if judge and judge.jury:
            j = judge.jury
            return f"{a.matcher} {j.passed_jurors}/{j.decisive}{quorum_text(j)}{weight}"
        if judge:
            score = judge.display_score or num(judge.score)
            return f"{a.matcher} score {score}, threshold {num(judge.threshold)}{weight}"
        return a.matcher + weight

    @property
    def target(self) -> str | None:
        """The checked target, shown beside `check` for deterministic matchers."""
        a = self.assertion
        if a is None:
            return self.test.tool if self.judge is None else None
        return a.target if a.judge is None else None

    @property
    def result(self) -> str:
        """Why it did not pass, in one line of (untrusted) text."""
        a = self.assertion
        if a is None:
            text = self.test.message or STATUS_LABEL[self.status]
        elif a.message:
            text = a.message
        elif a.expected is not None or a.actual is not None:
            text = f"expected {value_text(a.expected)}, got {value_text(a.actual)}"
        else:
            text = STATUS_LABEL[self.status]
        judge = self.judge
        if self.escalated and judge and judge.jury:
            text = f"{judge.jury.verdict}, escalated"
        if self.lost and judge and judge.jury and lost_text(judge.jury) not in text:
            text = f"{text}; {lost_text(judge.jury)}"
        return text


def quorum_text(j: JuryAnalytics) -> str:
    """`, quorum 0.50` for a jury; nothing for an eval panel, which has no quorum."""
    return "" if j.panel else f", quorum {num(j.quorum)}"


def test_findings(test: TestResult) -> list[ReviewRow]:
    found: list[ReviewRow] = []
    hard = any(a.status in ("failed", "error") for a in test.assertions)
    weighted = test.weighted is not None
    if weighted and test.status not in ("passed", "flaky"):  # the score decided: lead with it
        found.append(ReviewRow(test, None, test.status, False))
    for a in test.assertions:
        escalated = is_escalated(a.judge)
        if (a.status == "passed" or (weighted and test.status == "passed")) and not (
                escalated or has_lost_seat(a.judge)):
            continue  # in a passing weighted test a failed check did not fail anything
        if a.status == "skipped" and hard and not escalated:
            continue  # a cascade skip behind a failure adds nothing to read
        found.append(ReviewRow(test, a, a.status, escalated))
    if test.status == "flaky":  # the row's own verdict leads its failing repetition's detail
        found.insert(0, ReviewRow(test, None, "flaky", False))
    elif is_escalated(test.judge) or (test.status != "passed" and not found):
        found.append(ReviewRow(test, None, test.status, is_escalated(test.judge)))
    return found


def review_rows(report: Report) -> list[ReviewRow]:
    """Non-passing and escalated rows, worst status first, then in report order."""
    rows = [f for t in report.tests for f in test_findings(t)]
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    return sorted(rows, key=lambda f: rank[f.status])


def to_review(report: Report) -> int:
    """Tests with at least one escalated jury: the "N to review" of the header."""
    return sum(
        1
        for t in report.tests
        if is_escalated(t.judge) or any(is_escalated(a.judge) for a in t.assertions)
    )


def budget_skips(report: Report) -> int:
    """Checks the cost cap kept from running (skipped with a budget reason)."""
    return sum(
        1 for t in report.tests for f in test_findings(t)
        if f.status == "skipped" and (t.gap == "budget" or (
            f.assertion is not None and (f.assertion.message or "").startswith("budget")
        ))
    )


def summary_bits(report: Report, not_judged: int = 0) -> list[str]:
    """Counts in a fixed order, zeros left out except `passed`; a lint report's findings.
    `not_judged` deferred tests are left out (the comment's headline counts them itself)."""
    if lint_summary.lint_only(report):
        return lint_summary.lint_bits(report)
    c = report.summary.counts
    bits = [f"{c.passed} passed"]
    for key in ("failed", "flaky", "error", "skipped", "deferred", "not_yet_available"):
        if n := getattr(c, key) - (not_judged if key == "deferred" else 0):
            bits.append(f"{n} {STATUS_LABEL[key]}")
    if report.summary.uncalibrated:
        bits.append(f"{report.summary.uncalibrated} uncalibrated (advisory)")
    return bits


def cost_line(report: Report) -> str:
    s = report.summary
    line = cost(s.cost_usd)
    if not all(t.cost_known for t in report.tests):  # a model had no known price
        line = f"{line} + unknown (a model has no known price)"
    if s.max_cost_usd is None:
        return line
    return f"{line} of {cost(s.max_cost_usd)} cap"


def cassette_line(report: Report) -> str | None:
    """What the run's model cassettes did (`--models`), or None without them."""
    c = report.summary.cassettes
    if c is None:
        return None
    line = (f"model cassettes ({c.mode}): {c.replayed} answer(s) replayed, {c.recorded} "
            f"recorded live, {c.written} file(s) written")
    return line + (f" · {c.diverged} test(s) failed their replay" if c.diverged else "")
