"""The comment's headline and the tests that were not judged (docs/pr-comment.md, "The
headline").

The headline is one ordered list of short items after the verdict mark: the counts, what was
not judged and why, what to review, lost juror seats, the cost. A feature that needs a reviewer's
first glance adds its item in `items` (and a one-line note under the headline in `notes` of the
markdown reporter's header); nothing else assembles the line.

A deferred test was not judged: its judge (or its agent model) could not be reached. The
headline never says a bare "passed" over such tests: it counts them with their cause in a fixed
vocabulary ("no key", …), never with text read from the report.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.reporters import display, seats

if TYPE_CHECKING:
    from mcptest.report.models import CalibrationNote, JudgeDetail, Report, TestResult

_KEY_NAME = re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_API_KEY)\b")
_CAUSES: tuple[tuple[str, str], ...] = (  # needles in lower case
    ("_api_key", "no key"),
    ("api key", "no key"),
    ("no judge model", "no judge model"),
    ("no provider for", "model without a provider"),
    ("no `response` to grade", "nothing to grade"),
)
NO_JUDGE = "no judge reachable"


def _deferred(test: TestResult) -> list[tuple[JudgeDetail | None, CalibrationNote | None]]:
    """The judges (and calibration notes) of what was deferred: the deferred checks, or the
    row's own judge (an eval) when no check was."""
    waiting = [(a.judge, a.calibration) for a in test.assertions if a.status == "deferred"]
    return waiting or [(test.judge, test.calibration)]


def unjudged(test: TestResult) -> bool:
    """Deferred with no judge answer at all (no key, no model): not run. A deferral some judge
    answered (an advisory verdict of an uncalibrated judge, a jury waiting on a seat) is a
    finding to read, not a test that did not run."""
    if test.status != "deferred":
        return False
    for judge, note in _deferred(test):
        if note is not None and note.verdict is not None:
            return False
        if judge is not None and any(
                v.passed is not None or v.score is not None or v.label is not None
                or v.abstained for v in judge.votes):
            return False
    return True


def deferral_text(test: TestResult) -> str:
    """Why a deferred test was not judged, as the run put it (untrusted: escape it), without
    the leading `deferred: `."""
    texts = [test.message or ""]
    texts += [a.message or "" for a in test.assertions if a.status == "deferred"]
    texts += [v.error or "" for j, _ in _deferred(test) if j for v in j.votes if v.deferred]
    text = next((t for t in texts if t), "")
    return text.removeprefix("deferred: ")


def cause(text: str) -> str:
    """The short cause of one deferral, from a fixed vocabulary."""
    lower = text.lower()
    return next((label for needle, label in _CAUSES if needle in lower), NO_JUDGE)


@dataclass(frozen=True)
class NotRun:
    """Tests not judged in this run, by cause, and the provider keys they missed."""

    tests: list[TestResult]
    causes: Counter[str]
    keys: list[str]

    def __len__(self) -> int:
        return len(self.tests)

    @property
    def cause_text(self) -> str:
        """`no key`, or `no key 27, no judge model 2` when the causes differ."""
        if len(self.causes) == 1:
            return next(iter(self.causes))
        return ", ".join(f"{c} {n}" for c, n in self.causes.most_common())

    @property
    def count(self) -> str:
        """`29 judge tests`, `1 judge test`."""
        n = len(self.tests)
        return f"{n} judge test{'' if n == 1 else 's'}"

    @property
    def item(self) -> str:
        """`29 judge tests not run: no key`."""
        return f"{self.count} not run: {self.cause_text}"


def not_run(report: Report) -> NotRun:
    """The deferred tests of the run: not judged, so not measured and never a pass."""
    tests = [t for t in report.tests if unjudged(t)]
    texts = [deferral_text(t) for t in tests]
    keys = sorted({k for text in texts for k in _KEY_NAME.findall(text)})
    return NotRun(tests=tests, causes=Counter(cause(t) for t in texts), keys=keys)


def items(report: Report, missed: NotRun | None = None) -> list[str]:
    """Every item of the headline after the mark, in order: plain labels and numbers (no text
    read from the report), so the template joins them as they are."""
    missed = missed or not_run(report)
    out = display.summary_bits(report, len(missed))
    if missed.tests:
        out.append(missed.item)
    if review := display.to_review(report):
        out.append(f"{review} to review")
    if lost := sum(len(j.lost) for _, j in seats.juries_with_lost_seats(report)):
        out.append(f"⚠️ {lost} juror seat(s) lost")
    out.append(display.cost_line(report))
    return out


def outcome(report: Report) -> str:
    """What happened, in one line (the run's last line, the HTML title): `22 passed · 31 not
    judged: no key`, never a bare "passed" over tests no judge saw. A report showing only some
    of its rows (`mcptest diff`) counts its deferrals as such: the causes are in rows not shown."""
    if len(report.tests) != report.summary.counts.total:
        return " · ".join(display.summary_bits(report))
    missed = not_run(report)
    bits = display.summary_bits(report, len(missed))
    if missed.tests:
        bits.append(f"{len(missed)} not judged: {missed.cause_text}")
    return " · ".join(bits)
