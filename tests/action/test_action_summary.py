"""The job summary's minimal fallback (action/job_summary.py) says what was not judged as the full
comment does: never a bare count of passes over deferred tests."""

from __future__ import annotations

from reporters.sample import sample_report

from mcptest.action.job_summary import fallback_markdown


def test_the_fallback_header_counts_deferred_tests_as_not_judged() -> None:
    header = fallback_markdown(sample_report()).splitlines()[0]
    assert header == ("### ❌ mcptest · 4 passed · 4 failed · 2 skipped · 1 not judged "
                      "(not measured) · $0.0123 of $0.05 cap")
