"""Each human format shows an escalation cascade (docs/cascade.md, "In reports"): which tier
decided each assertion and why, the run's shares per tier, the cost against the last tier on
everything and the guarantee; the PR comment's headline carries the savings."""

from __future__ import annotations

import html
import json

import cmarkgfm
from sample import sample_report

from mcptest.report.build import recomputed
from mcptest.report.models import Escalation, JudgeDetail, Report, TierStep
from mcptest.reporters import get_reporter


def _escalation(decided_by: int, cost: float) -> Escalation:
    cheap = TierStep(tier=1, kind="llm-judge", models=["cheap <i>"], ran=True, verdict="passed",
                     score=0.95 if decided_by == 1 else 0.74, confidence=0.83 if decided_by == 1
                     else 0.13, threshold=0.42, decided=decided_by == 1, cost_usd=0.0001,
                     reason="confidence 0.83 ≥ 0.42: its verdict stands" if decided_by == 1
                     else "confidence 0.13 < 0.42: escalated")
    jury = TierStep(tier=2, kind="llm-jury", models=["juror-a", "juror-b"],
                    ran=decided_by == 2, decided=decided_by == 2,
                    verdict="failed" if decided_by == 2 else None,
                    cost_usd=cost if decided_by == 2 else 0.0,
                    reason="the last tier decides" if decided_by == 2
                    else "not needed: tier 1 decided")
    return Escalation(decided_by=decided_by, tiers=[cheap, jury], calibrated=True,
                      target_agreement=0.9, guaranteed_agreement=0.905,
                      last_tier_cost_usd=0.004)


def _with_cascades() -> Report:
    """The sample's passing llm-judge decided by tier 1; a copy of it decided by tier 2."""
    report = sample_report()
    tests = []
    for t in report.tests:
        rows = []
        for a in t.assertions:
            if a.matcher == "llm-judge" and a.status == "passed" and a.judge is not None:
                judge = a.judge.model_copy(update={"escalation": _escalation(1, 0.0)})
                rows.append(a.model_copy(update={"judge": judge, "cost_usd": 0.0001}))
                jury = JudgeDetail(kind="llm-jury", escalation=_escalation(2, 0.004))
                rows.append(a.model_copy(update={"index": 9, "judge": jury, "cost_usd": 0.0041,
                                                 "status": "failed"}))
            else:
                rows.append(a)
        tests.append(t.model_copy(update={"assertions": rows}))
    return recomputed(report.model_copy(update={"tests": tests}))


def test_the_summary_counts_the_tiers_the_cost_and_the_guarantee() -> None:
    c = _with_cascades().summary.cascade
    assert c is not None
    assert c.verdicts == 2 and c.settled == [1, 1]
    assert c.cost_usd == 0.0042 and c.last_tier_cost_usd == 0.008  # 0.004 each
    assert c.saved_usd == 0.0038 and c.guaranteed_agreement == 0.905
    assert sample_report().summary.cascade is None


def test_the_comment_headline_shows_the_savings() -> None:
    comment = get_reporter("md")(_with_cascades())
    headline = comment.splitlines()[1]
    assert headline.startswith("### ") and headline.endswith(" · cascade saved 48%")
    assert ("cascade: 2 verdict(s) settled (tier 1 1, tier 2 1); $0.0042 against $0.0080 with "
            "the last tier on every one (saved $0.0038, 48%); guaranteed agreement ≥ 90.5%"
            in html.unescape(comment))  # `$` and `:` escaped, so GitHub renders no math
    shown = cmarkgfm.github_flavored_markdown_to_html(comment)
    assert ("<li>tier 1 llm-judge cheap &lt;i&gt;: passed, score 0.74; confidence 0.13 &lt; "
            "0.42: escalated" in shown)
    assert "<li>▶ tier 2 llm-jury juror-a, juror-b: failed; the last tier decides" in shown


def test_the_terminal_shows_each_tier_and_the_run_line() -> None:
    pretty = get_reporter("pretty")(_with_cascades())
    assert ("▶ tier 1 llm-judge cheap <i>: passed, score 0.95; confidence 0.83 ≥ 0.42: its "
            "verdict stands" in pretty)
    assert "tier 2 llm-jury juror-a, juror-b: not run; not needed: tier 1 decided" in pretty
    assert "▶ tier 2 llm-jury juror-a, juror-b: failed; the last tier decides" in pretty
    assert "cascade: 2 verdict(s) settled (tier 1 1, tier 2 1)" in pretty


def test_html_escapes_what_a_tier_says() -> None:
    page = get_reporter("html")(_with_cascades())
    assert "cheap &lt;i&gt;" in page and "cheap <i>" not in page
    assert "⚖️ cascade saved 48%" in page


def test_json_and_sarif_carry_it() -> None:
    report = _with_cascades()
    data = json.loads(get_reporter("json")(report))
    assert data["summary"]["cascade"]["settled"] == [1, 1]
    escalations = [a["judge"]["escalation"] for t in data["tests"] for a in t["assertions"]
                   if a["judge"] and a["judge"]["escalation"]]
    assert [e["decided_by"] for e in escalations] == [1, 2]
    log = json.loads(get_reporter("sarif")(report))
    assert log["runs"][0]["properties"]["cascade"]["saved_usd"] == 0.0038
