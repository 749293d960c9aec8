"""The comment of a run compared with a baseline: the difference first, the full results
collapsed after it, under GitHub's 65,536-character limit at 5,000 rows (cmarkgfm renders it)."""

from __future__ import annotations

import cmarkgfm
from cmarkgfm.cmark import Options
from sample import big_report

from mcptest.compare.attach import with_baseline
from mcptest.compare.gate_options import CompareOptions
from mcptest.reporters.markdown import render

GITHUB_LIMIT = 65_536


def _html(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def test_five_thousand_rows_with_regressions_lead_and_fit() -> None:
    new = big_report(5000)
    old = new.model_copy(update={"tests": [
        t.model_copy(update={"status": "passed", "definition_hash": f"h{i % 7 == 0}"})
        for i, t in enumerate(new.tests)]})
    new = new.model_copy(update={"tests": [t.model_copy(update={"definition_hash": "hFalse"})
                                           for t in new.tests]})
    compared = with_baseline(new, old, CompareOptions(), source="artifact mcptest-report @ abc")
    regressed = compared.comparison.counts["regressed"]
    assert regressed > 500 and compared.comparison.counts["changed"] > 500
    text = render(compared)
    assert len(text) < GITHUB_LIMIT
    html = _html(text)
    first = html.index("Compared with the baseline")
    assert first < html.index(f"Regressed: {regressed}") < html.index(
        "<details><summary>Full results") < html.index("mcptest · ")  # the old header
    assert f"… and {regressed - 20} more in the JSON report." in html


def test_without_a_baseline_the_comment_is_as_before() -> None:
    report = big_report(10)
    assert "Compared with the baseline" not in render(report)
    assert "Full results" not in render(report)
