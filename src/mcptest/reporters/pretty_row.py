"""The terminal format's lines for one row: its status line, then what went wrong below it.

`reporters/pretty.py` puts these between the run's header and summary; the pytest plugin shows
one row alone (`render_test`). Colour is opt-in; every server or model string goes through
`escape.terminal`, so a tool answer cannot move the cursor or recolour the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters import cascade_display, corrected_display, display, seats
from mcptest.reporters.escape import shorten, terminal
from mcptest.reporters.repeats_display import repeat_text
from mcptest.reporters.selection_display import selection_text
from mcptest.reporters.verdict_text import mode_line, vote_answer
from mcptest.reporters.weights import weight_text, weighted_text

if TYPE_CHECKING:
    from mcptest.report.models import AssertionResult, JudgeDetail, JudgeVote, TestResult

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


class PrettyOut:
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


def safe(value: object, limit: int | None = _TEXT_LIMIT) -> str:
    return terminal(shorten(value if isinstance(value, str) else str(value), limit))


def _where(test: TestResult) -> str:
    return safe(f"{test.location.file}:{test.location.line}", 160)


def _vote_line(out: PrettyOut, vote: JudgeVote) -> str:
    if vote.deferred:
        mark, verdict = out.paint("~", "deferred"), safe(vote.error or "deferred", 160)
    elif vote.error:
        mark, verdict = out.paint("!", "error"), f"error: {safe(vote.error, 160)}"
    elif vote.abstained:
        mark, verdict = out.paint("○", "dim"), "abstained"
    else:
        style = "passed" if vote.passed else "failed"
        sign = "?" if vote.passed is None else "✓" if vote.passed else "✗"
        mark, verdict = out.paint(sign, style), safe(vote_answer(vote), 80)
    family = f" ({safe(vote.family, 40)})" if vote.family else ""
    stand_in = f" [stand-in for {safe(vote.replacement_for, 80)}]" if vote.replacement_for else ""
    cached = " [cached]" if vote.cached else ""
    reason = f"  {safe(vote.reason, 200)}" if vote.reason else ""
    return f"{mark} {safe(vote.model, 80)}{family}{stand_in}{cached}: {verdict}{reason}"


def _judge(out: PrettyOut, judge: JudgeDetail, depth: int) -> None:
    for line in cascade_display.tier_lines(judge):
        out.add(safe(line, 400), depth)
    if judge.jury:
        j = judge.jury
        band = out.paint(j.confidence or "n/a", j.confidence or "dim")
        review = ", " + out.paint("escalated for review", "low") if j.escalate else ""
        lost = out.paint(f", {len(j.lost)} lost", "error") if j.lost else ""
        worth = f" · {seats.effective_text(j.effective_jurors)}" if j.effective_jurors else ""
        out.add(
            f"jury: {band} · α {display.num(j.agreement)}{seats.rests_on(j)}{worth} · "
            f"{j.passed_jurors}/{j.decisive} "
            f"passed{f', {j.deferred} deferred' if j.deferred else ''}{lost}"
            f"{display.quorum_text(j)} · verdict {j.verdict}{review}",
            depth,
        )
        if j.bias_warning:
            out.add(out.paint(f"bias: {safe(j.bias_warning, 200)}", "medium"), depth)
    elif judge.score is not None:
        score = judge.display_score or display.num(judge.score)
        out.add(f"{judge.kind}: score {safe(score, 20)}, threshold "
                f"{display.num(judge.threshold)}", depth)
    if (mode := mode_line(judge)) is not None:
        out.add(safe(mode, 300), depth)
    for vote in judge.votes:
        out.add(_vote_line(out, vote), depth + 1)
    for c in judge.criteria:
        style = "passed" if c.status == "passed" else c.status
        flags = "".join(f" [{f}]" for f, on in (("required", c.required), ("guard", c.guard)) if on)
        reason = f"  {safe(c.reason, 200)}" if c.reason else ""
        out.add(f"{out.paint(c.status, style)} {safe(c.name, 80)}{flags}: "
                f"{display.num(c.score)} (threshold {display.num(c.threshold)}){reason}",
                depth + 1)


def _assertion(out: PrettyOut, a: AssertionResult, depth: int) -> None:
    where = f" ({safe(f'{a.location.file}:{a.location.line}', 160)})" if a.location else ""
    weight = f" · {weight_text(a)}" if a.weight is not None else ""
    out.add(f"#{a.index} {safe(a.target, 120)} · {safe(a.matcher, 40)} · "
            f"{out.paint(display.STATUS_LABEL[a.status], a.status)}{weight}"
            f"{out.paint(where, 'dim')}", depth)
    if a.user_message:
        out.add(f"note: {safe(a.user_message)}", depth + 1)
    if a.status != "passed" and a.judge is None and (
        a.expected is not None or a.actual is not None
    ):
        out.add(f"expected: {safe(display.value_text(a.expected))}", depth + 1)
        out.add(f"actual:   {safe(display.value_text(a.actual))}", depth + 1)
    if a.message:  # a multi-line message (an aligned trajectory) keeps its lines
        text = shorten(a.message, _TEXT_LIMIT * 4)
        for line in terminal(text, keep_newlines=True).split("\n"):
            out.add(line, depth + 1)
    if a.judge:
        _judge(out, a.judge, depth + 1)
    if a.calibration:
        out.add(safe(display.calibration_text(a.calibration)), depth + 1)


def stderr_block(out: PrettyOut, text: str, depth: int) -> None:
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
    return f"  score {safe(d.display_score or display.num(d.score), 20)}"


def test_block(out: PrettyOut, test: TestResult, said: frozenset[str] = frozenset()) -> None:
    """`said`: the errors (with a stderr tail) of servers that never became ready, already shown
    in the header: a test of such a server names its server instead of repeating the tail."""
    cost = f"  {display.cost(test.cost_usd)}" if test.cost_usd else ""
    cached = f"  {test.cache_hits} cached" if test.cache_hits else ""
    out.add(f"{out.paint(_WORD[test.status], test.status)} {safe(test.name, 200)}  "
            f"{out.paint(_where(test), 'dim')}{_score(test)}  "
            f"{display.duration(test.duration_ms)}{cost}{cached}")
    if test.repeat is not None:
        out.add(repeat_text(test.repeat), 1)
    if (fixed := corrected_display.row_text(test)) is not None:
        out.add(safe(fixed, 600), 1)
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
            out.add(f"{gap}never became ready: server {safe(test.server, 80)} (its error is "
                    "above)", 1)
        elif test.message:
            out.add(f"{gap}{safe(test.message)}", 1)
    shown = {id(f.assertion) for f in display.test_findings(test) if f.assertion}
    for a in test.assertions:
        if id(a) in shown or (a.judge and (a.judge.jury or a.judge.escalation)) or (
                a.weight is not None):
            _assertion(out, a, 1)
    if test.judge and (test.status != "passed" or partial or display.is_escalated(test.judge)):
        _judge(out, test.judge, 1)
    if test.calibration and test.status != "passed":
        out.add(safe(display.calibration_text(test.calibration)), 1)
    if test.server_stderr and test.status == "error":
        stderr_block(out, test.server_stderr, 1)



def render_test(test: TestResult, color: bool = False) -> str:
    """One test as the terminal report shows it: its line and what went wrong below it (the
    pytest plugin's failure text)."""
    out = PrettyOut(color)
    test_block(out, test)
    return "\n".join(out.lines) + "\n"

