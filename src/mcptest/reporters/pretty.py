"""The terminal format: one line per test, what went wrong right below it, then a summary.

Colour is opt-in (`color=True`); the CLI decides (TTY, NO_COLOR). Every server or model string
goes through `escape.terminal`, so a tool answer cannot move the cursor or recolour the screen.
"""

from __future__ import annotations

from mcptest.report.models import (
    AssertionResult,
    JudgeDetail,
    JudgeVote,
    Report,
    TestResult,
)
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
from mcptest.reporters.escape import shorten, terminal
from mcptest.reporters.lint_summary import lint_only
from mcptest.reporters.repeats_display import adaptive_line, repeat_text
from mcptest.reporters.selection_display import change_lines, selection_text
from mcptest.reporters.verdict_text import mode_line, vote_answer
from mcptest.reporters.weights import weight_text, weighted_text

_WORD = {
    "passed": "✓ PASS ", "failed": "✗ FAIL ", "error": "! ERROR", "skipped": "- SKIP ",
    "deferred": "~ DEFER", "not_yet_available": "… NYA  ", "flaky": "? FLAKY",
}
_COLOUR = {
    "passed": "32", "failed": "31", "error": "31;1", "skipped": "33", "deferred": "36",
    "not_yet_available": "35", "flaky": "33;1", "high": "32", "medium": "33", "low": "31",
    "dim": "2", "bold": "1",
}
_INDENT = "    "
_TEXT_LIMIT = 400
_STDERR_LINES = 12


class _Out:
    """Collects lines; paints them only when colour was asked for."""

    def __init__(self, color: bool) -> None:
        self.color = color
        self.lines: list[str] = []

    def paint(self, text: str, style: str) -> str:
        return f"\x1b[{_COLOUR[style]}m{text}\x1b[0m" if self.color else text

    def add(self, line: str = "", depth: int = 0) -> None:
        if line.startswith("::"):
            line = "› " + line  # a CI log would read `::name::` at a line start as a command
        self.lines.append(_INDENT * depth + line)


def _safe(value: object, limit: int | None = _TEXT_LIMIT) -> str:
    return terminal(shorten(value if isinstance(value, str) else str(value), limit))


def _where(test: TestResult) -> str:
    return _safe(f"{test.location.file}:{test.location.line}", 160)


def _vote_line(out: _Out, vote: JudgeVote) -> str:
    if vote.deferred:
        mark, verdict = out.paint("~", "deferred"), _safe(vote.error or "deferred", 160)
    elif vote.error:
        mark, verdict = out.paint("!", "error"), f"error: {_safe(vote.error, 160)}"
    elif vote.abstained:
        mark, verdict = out.paint("○", "dim"), "abstained"
    else:
        style = "passed" if vote.passed else "failed"
        sign = "?" if vote.passed is None else "✓" if vote.passed else "✗"
        mark, verdict = out.paint(sign, style), _safe(vote_answer(vote), 80)
    family = f" ({_safe(vote.family, 40)})" if vote.family else ""
    stand_in = f" [stand-in for {_safe(vote.replacement_for, 80)}]" if vote.replacement_for else ""
    cached = " [cached]" if vote.cached else ""
    reason = f"  {_safe(vote.reason, 200)}" if vote.reason else ""
    return f"{mark} {_safe(vote.model, 80)}{family}{stand_in}{cached}: {verdict}{reason}"


def _judge(out: _Out, judge: JudgeDetail, depth: int) -> None:
    for line in cascade_display.tier_lines(judge):
        out.add(_safe(line, 400), depth)
    if judge.jury:
        j = judge.jury
        band = out.paint(j.confidence or "n/a", j.confidence or "dim")
        review = ", " + out.paint("escalated for review", "low") if j.escalate else ""
        lost = out.paint(f", {len(j.lost)} lost", "error") if j.lost else ""
        out.add(
            f"jury: {band} · α {display.num(j.agreement)}{seats.rests_on(j)} · "
            f"{j.passed_jurors}/{j.decisive} "
            f"passed{f', {j.deferred} deferred' if j.deferred else ''}{lost}"
            f"{display.quorum_text(j)} · verdict {j.verdict}{review}",
            depth,
        )
        if j.bias_warning:
            out.add(out.paint(f"bias: {_safe(j.bias_warning, 200)}", "medium"), depth)
    elif judge.score is not None:
        score = judge.display_score or display.num(judge.score)
        out.add(f"{judge.kind}: score {_safe(score, 20)}, threshold "
                f"{display.num(judge.threshold)}", depth)
    if (mode := mode_line(judge)) is not None:
        out.add(_safe(mode, 300), depth)
    for vote in judge.votes:
        out.add(_vote_line(out, vote), depth + 1)
    for c in judge.criteria:
        style = "passed" if c.status == "passed" else c.status
        flags = "".join(f" [{f}]" for f, on in (("required", c.required), ("guard", c.guard)) if on)
        reason = f"  {_safe(c.reason, 200)}" if c.reason else ""
        out.add(f"{out.paint(c.status, style)} {_safe(c.name, 80)}{flags}: "
                f"{display.num(c.score)} (threshold {display.num(c.threshold)}){reason}",
                depth + 1)


def _assertion(out: _Out, a: AssertionResult, depth: int) -> None:
    where = f" ({_safe(f'{a.location.file}:{a.location.line}', 160)})" if a.location else ""
    weight = f" · {weight_text(a)}" if a.weight is not None else ""
    out.add(f"#{a.index} {_safe(a.target, 120)} · {_safe(a.matcher, 40)} · "
            f"{out.paint(display.STATUS_LABEL[a.status], a.status)}{weight}"
            f"{out.paint(where, 'dim')}", depth)
    if a.user_message:
        out.add(f"note: {_safe(a.user_message)}", depth + 1)
    if a.status != "passed" and a.judge is None and (
        a.expected is not None or a.actual is not None
    ):
        out.add(f"expected: {_safe(display.value_text(a.expected))}", depth + 1)
        out.add(f"actual:   {_safe(display.value_text(a.actual))}", depth + 1)
    if a.message:  # a multi-line message (an aligned trajectory) keeps its lines
        text = shorten(a.message, _TEXT_LIMIT * 4)
        for line in terminal(text, keep_newlines=True).split("\n"):
            out.add(line, depth + 1)
    if a.judge:
        _judge(out, a.judge, depth + 1)
    if a.calibration:
        out.add(_safe(display.calibration_text(a.calibration)), depth + 1)


def _stderr(out: _Out, text: str, depth: int) -> None:
    lines = terminal(text, keep_newlines=True).rstrip("\n").split("\n")
    out.add(out.paint(f"server stderr (last {min(len(lines), _STDERR_LINES)} lines):", "dim"),
            depth)
    for line in lines[-_STDERR_LINES:]:
        out.add(out.paint("| ", "dim") + shorten(line, 200), depth)


def _score(test: TestResult) -> str:
    """`  score 0.92` when the test has exactly one judged score (an eval, or one judged
    assertion): the PASS line then reads like the judge documents show it."""
    if test.weighted is not None and test.weighted.score is not None:
        return f"  {weighted_text(test)}"
    details = [a.judge for a in test.assertions if a.judge] + ([test.judge] if test.judge else [])
    scored = [d for d in details if d.score is not None]
    if len(scored) != 1:
        return ""
    d = scored[0]
    return f"  score {_safe(d.display_score or display.num(d.score), 20)}"


def _test(out: _Out, test: TestResult, said: frozenset[str] = frozenset()) -> None:
    """`said`: the errors (with a stderr tail) of servers that never became ready, already shown
    in the header: a test of such a server names its server instead of repeating the tail."""
    cost = f"  {display.cost(test.cost_usd)}" if test.cost_usd else ""
    cached = f"  {test.cache_hits} cached" if test.cache_hits else ""
    out.add(f"{out.paint(_WORD[test.status], test.status)} {_safe(test.name, 200)}  "
            f"{out.paint(_where(test), 'dim')}{_score(test)}  "
            f"{display.duration(test.duration_ms)}{cost}{cached}")
    if test.repeat is not None:
        out.add(repeat_text(test.repeat), 1)
    if (fixed := corrected_display.row_text(test)) is not None:
        out.add(_safe(fixed, 600), 1)
    if test.selection is not None:
        out.add(selection_text(test.selection), 1)
    # a pass decided without a deferred judge says so, with the votes, as a jury row does
    partial = test.judge is not None and any(v.deferred for v in test.judge.votes)
    if test.status != "passed" or partial:
        gap = f"[{test.gap}] " if test.gap else ""
        if test.message and test.gap == "replay":  # the turn diff keeps its lines
            text = terminal(shorten(f"{gap}{test.message}", _TEXT_LIMIT * 16),
                            keep_newlines=True)
            for line in text.split("\n"):
                out.add(line, 1)
        elif test.message and test.server and any(e in test.message for e in said):
            out.add(f"{gap}never became ready: server {_safe(test.server, 80)} (its error is "
                    "above)", 1)
        elif test.message:
            out.add(f"{gap}{_safe(test.message)}", 1)
    shown = {id(f.assertion) for f in display.test_findings(test) if f.assertion}
    for a in test.assertions:
        if id(a) in shown or (a.judge and (a.judge.jury or a.judge.escalation)) or (
                a.weight is not None):
            _assertion(out, a, 1)
    if test.judge and (test.status != "passed" or partial or display.is_escalated(test.judge)):
        _judge(out, test.judge, 1)
    if test.calibration and test.status != "passed":
        out.add(_safe(display.calibration_text(test.calibration)), 1)
    if test.server_stderr and test.status == "error":
        _stderr(out, test.server_stderr, 1)


def _header(out: _Out, report: Report) -> None:
    s = report.summary
    out.add(out.paint(f"mcptest {_safe(report.tool.version, 40)}", "bold")
            + f" · {len(report.suites)} suite file(s) · {s.counts.total} test(s)")
    if s.projected_judge_calls:
        bound = f", cost bound {display.cost(s.cost_bound_usd)}" if s.cost_bound_usd else ""
        out.add(f"projected judge calls: {s.projected_judge_calls}{bound}")
    for server in report.servers:
        if server.status == "ready":
            continue
        out.add(out.paint(f"server {_safe(server.name, 80)} {server.status}", "error")
                + (f": {_safe(server.error)}" if server.error else ""))
        if server.stderr_tail:
            _stderr(out, server.stderr_tail, 1)
    out.add()


def _summary(out: _Out, report: Report) -> None:
    s = report.summary
    out.add()
    out.add(out.paint("─" * 60, "dim"))
    counts = ", ".join(display.summary_bits(report))
    if lint_only(report):  # findings, not tests: no "0 passed of 0", no judge line
        out.add(out.paint(f"lint: {counts} in {display.duration(s.duration_ms)}", "bold"))
        for warning in report.warnings:
            out.add(out.paint(f"warning: {_safe(warning)}", "medium"))
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
        out.add(_safe(cascade, 400))
    if (adaptive := adaptive_line(report)) is not None:
        out.add(_safe(adaptive, 1500))
    for line in corrected_display.judge_lines(report):
        out.add(_safe(line, 600))
    review = display.to_review(report)
    if review or s.run_agreement is not None:
        out.add(f"{review} to review (escalated juries) · {display.run_agreement_text(s)}")
    if s.run_agreement_labels is not None:
        out.add(f"run agreement on labels α (nominal) {display.num(s.run_agreement_labels)}")
    gaps = display.gap_rows(report)
    if gaps:
        out.add("gaps: " + ", ".join(f"{_safe(k, 60)} {v}" for k, v, _ in gaps))
        for k, _, advice in gaps:
            if advice:
                out.add(f"{_safe(k, 60)}: {advice}", 1)
    for test, jury in seats.juries_with_lost_seats(report):  # never silent, even in a passing jury
        out.add(out.paint(f"juror seat lost: {_safe(test.name, 120)}: "
                          f"{_safe(seats.lost_text(jury), 400)}", "error"))
    for warning in report.warnings:
        out.add(out.paint(f"warning: {_safe(warning)}", "medium"))
    if s.interrupted:
        out.add(out.paint(f"interrupted: {_safe(s.interrupted)}", "error"))
    style = "passed" if s.exit_code == 0 else "failed"  # the last line: what happened
    out.add(out.paint(f"{headline.outcome(report)} · exit {s.exit_code}: "
                      f"{display.exit_text(report)}", style))


def _lint(out: _Out, report: Report) -> None:
    """`mcptest lint` findings, errors first, and each server's protocol era (docs/lint.md)."""
    lint = report.lint
    if lint is None:
        return
    for server in report.servers:
        if server.status == "ready":
            out.add(f"server {_safe(server.name, 80)}: {server.protocol_version or '?'} "
                    f"({server.era or 'era unknown'}), {len(server.tools)} tool(s)")
    style = {"error": "error", "warning": "medium", "note": "dim"}
    for f in sorted(lint.findings, key=lambda f: ("error", "warning", "note").index(f.level)):
        label = "expected" if f.expected else f.level
        where = f"{f.location.file}:{f.location.line}"
        out.add(out.paint(f"{label:<8} {f.rule}", style[f.level])
                + f" {_safe(where, 120)} {_safe(f.server or '', 80)}: {_safe(f.message)}")
    for checked in dict.fromkeys(c.server for c in lint.checks):  # docs/conformance.md
        mine = [c for c in lint.checks if c.server == checked]
        counts = ", ".join(f"{sum(c.status == k for c in mine)} {k}"
                           for k in ("passed", "failed", "skipped"))
        out.add(f"conformance {_safe(checked, 80)}: {counts}")
    out.add(f"lint: {len(lint.findings)} finding(s), {lint.suppressed} suppressed, "
            f"{lint.messages_checked} wire message(s) checked")


def _comparison(out: _Out, report: Report) -> None:
    """Against the baseline: each class that has rows, what the change broke first."""
    c = report.comparison
    if c is None:
        return
    out.add()
    for line in change_lines(c):  # a description change reads first (docs/selection.md)
        out.add(out.paint(_safe(line, 300), "bold"))
    out.add(out.paint(f"against {_safe(c.baseline, 200)}: {summary_line(c)}", "bold"))
    if c.note:
        out.add(_safe(c.note), 1)
    for line in corrected_lines(c):
        out.add(_safe(line, 400), 1)
    for key, _, label in LEADING:
        rows = [r for r in c.rows if r.change == key or (key == "regressed" and r.gated)]
        if rows:
            names = ", ".join(_safe(r.name, 80) for r in rows[:10])
            more = f" … and {len(rows) - 10} more" if len(rows) > 10 else ""
            out.add(f"{label.lower()} ({len(rows)}): {names}{more}", 1)


def render_test(test: TestResult, color: bool = False) -> str:
    """One test as the terminal report shows it: its line and what went wrong below it (the
    pytest plugin's failure text)."""
    out = _Out(color)
    _test(out, test)
    return "\n".join(out.lines) + "\n"


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The terminal report; ANSI colour only when `options.color` is true."""
    out = _Out(options.color)
    _header(out, report)
    said = frozenset(s.error for s in report.servers  # a stderr tail, not a short cause
                     if s.status != "ready" and s.error and "stderr: " in s.error)
    for test in report.tests:
        _test(out, test, said)
    _lint(out, report)
    _comparison(out, report)
    _summary(out, report)
    return "\n".join(out.lines) + "\n"
