"""The `summary` reporter (what `make demo` prints) and how a lint report is summed up: in
findings, never in test wording (docs/reports.md, docs/lint.md)."""

from __future__ import annotations

from sample import hostile_report, sample_report

from mcptest.report.models import (
    Counts,
    LintFinding,
    LintSection,
    Location,
    Report,
    Summary,
    ToolInfo,
)
from mcptest.report.models import TestResult as Row
from mcptest.reporters import get_reporter
from mcptest.reporters.summary import not_judged, render

WHERE = Location(file="s.yml", line=3, column=5)


def _deferred(i: int, message: str) -> Row:
    return Row(id=f"s.yml::tool::t{i}", name=f"t{i}", suite_file="s.yml",
                      location=WHERE, status="deferred", message=message)


def _report(tests: list[Row], **fields: object) -> Report:
    counts = Counts(total=len(tests), **{s: sum(t.status == s for t in tests)
                                         for s in {t.status for t in tests}})
    return Report(tool=ToolInfo(version="0.1.0"), started_at="2026-11-25T00:00:00Z",
                  finished_at="2026-11-25T00:00:01Z", suites=["s.yml"], tests=tests,
                  summary=Summary(counts=counts, duration_ms=1000.0, exit_code=0), **fields)


def test_every_status_gets_a_line_and_each_not_judged_reason_is_said_once() -> None:
    tests = [_deferred(i, "deferred: no OPENAI_API_KEY and no MCPTEST_JUDGE_BASE_URL for "
                          f"judge '{m}'") for i, m in enumerate(["gpt-4o", "gpt-4o", "o4-mini"])]
    tests.append(_deferred(9, "deferred: no judge model: set `model`, …"))
    text = render(_report(tests))
    assert text.count("no OPENAI_API_KEY") == 1
    assert "  3 test(s): no OPENAI_API_KEY (for gpt-4o, o4-mini)" in text.splitlines()
    assert not_judged(_report(tests))[1][1] == 1  # the one test without a judge model
    assert "0 passed, 4 not judged" in text.splitlines()
    sample = render(sample_report()).splitlines()
    for status in ("failed:", "error:", "skipped:", "not yet available:"):
        assert any(line.startswith(status) for line in sample), status
    assert sample[-1] == "exit 3: a server never became ready"


def test_server_and_model_text_stays_on_its_line() -> None:
    text = get_reporter("summary")(hostile_report())
    assert "\x1b" not in text and "\r" not in text
    assert all(len(line) < 600 for line in text.splitlines())
    assert text.splitlines()[-1].startswith("exit 1: ")


def test_a_lint_report_is_summed_up_in_findings_not_tests() -> None:
    findings = [LintFinding(rule="annotations", level="warning", message="m", location=WHERE),
                LintFinding(rule="injection-hidden-instructions", level="error", message="m",
                            location=WHERE, expected=True)]
    report = _report([], lint=LintSection(findings=findings))
    for fmt in ("pretty", "md"):
        text = get_reporter(fmt)(report)
        assert all(bit in text for bit in ("1 error (1 expected)", "1 warning", "0 notes")), fmt
        assert "passed" not in text.replace("✅ passed", ""), text  # the legend's key aside
        assert "every test passed" not in text and "no error-level lint finding" in text, fmt
