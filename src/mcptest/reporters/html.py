"""The `html` format: one self-contained page to open from the job artifacts.

Inline CSS only, no script, no external URL, and a CSP that forbids loading anything but inline
styles. Jinja autoescape is on and `finalize` strips control characters and masks key-shaped
strings in every printed value. Filtering by status works with radio buttons and CSS.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from mcptest.reporters import (
    DEFAULTS,
    RenderOptions,
    cascade_display,
    corrected_display,
    display,
    headline,
    seats,
)
from mcptest.reporters.escape import shorten, strip_controls
from mcptest.reporters.repeats_display import repeat_text
from mcptest.reporters.templating import environment
from mcptest.reporters.verdict_text import mode_line, vote_answer

if TYPE_CHECKING:
    import jinja2

    from mcptest.report.models import Report, TestResult

_VALUE_LIMIT = 8000
_CLASS = {"not_yet_available": "nya"}


def _finalize(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Markup):
        return strip_controls(value)
    return value


@functools.cache
def _template() -> jinja2.Template:
    env = environment(autoescape=True, finalize=_finalize)
    return env.get_template("report.html.j2")


def _pretty_json(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    except ValueError:
        text = repr(value)
    return shorten(text, _VALUE_LIMIT)


def _test_view(test: TestResult) -> dict[str, Any]:
    findings = display.test_findings(test)
    review = any(f.escalated for f in findings)
    classes = [_CLASS.get(test.status, test.status)]
    if review:
        classes.append("review")
    if review or test.status != "passed" or findings:
        classes.append("problem")
    return {"r": test, "classes": " ".join(classes), "review": review}


def _filters(tests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def count(cls: str) -> int:
        return sum(1 for t in tests if cls in t["classes"].split())

    keys = [("all", "all"), ("problem", "needs attention"), ("failed", "failed"),
            ("flaky", "flaky"), ("error", "error"), ("skipped", "skipped"),
            ("deferred", "deferred"),
            ("nya", "not yet available"), ("review", "to review"), ("passed", "passed")]
    out = [{"key": "all", "label": "all", "count": len(tests)}]
    out += [{"key": k, "label": label, "count": count(k)} for k, label in keys[1:]]
    return [f for f in out if f["key"] in ("all", "problem", "passed") or f["count"]]


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The whole report as one HTML document."""
    tests = [_test_view(t) for t in report.tests]
    # Problems first, in report order; passing tests after them.
    tests.sort(key=lambda t: "problem" not in t["classes"].split())
    return _template().render(
        report=report,
        s=report.summary,
        tests=tests,
        filters=_filters(tests),
        verdict=display.run_verdict(report),
        counts=display.summary_bits(report),
        review=display.to_review(report),
        cost_line=display.cost_line(report),
        savings=cascade_display.savings(report),
        cascade_line=cascade_display.run_line(report),
        corrected_lines=corrected_display.judge_lines(report),
        corrected_text=corrected_display.row_text,
        tier_lines=cascade_display.tier_lines,
        gaps=display.gap_rows(report),
        budget_skips=display.budget_skips(report),
        exit_meaning=display.exit_text(report),
        outcome=headline.outcome(report),
        band_legend=display.BAND_LEGEND,
        band_mark=display.BAND_MARK,
        marks=display.STATUS_MARK,
        labels=display.STATUS_LABEL,
        cost=display.cost,
        num=display.num,
        mode_line=mode_line,
        vote_answer=vote_answer,
        duration=display.duration,
        value_text=display.value_text,
        calibration_text=display.calibration_text,
        run_agreement_text=display.run_agreement_text,
        effective_text=seats.effective_text,
        repeat_text=repeat_text,
        pretty_json=_pretty_json,
    )
