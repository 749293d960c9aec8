"""How a report of `mcptest lint` (findings, no tests) is summed up: in findings and the lint's
own exit codes, not in test wording (no "0 passed of 0", no "every test passed")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.report.models import Report

LINT_EXIT_MEANING: dict[int, str] = {
    ExitCode.OK: "no error-level lint finding (expected ones aside)",
    ExitCode.TESTS_FAILED: "an error-level lint finding, or a stale expected-failure entry",
}


def lint_only(report: Report) -> bool:
    """A report of `mcptest lint`: findings, and no test rows."""
    return report.lint is not None and report.summary.counts.total == 0


def lint_bits(report: Report) -> list[str]:
    """`1 error (1 expected), 13 warnings, 0 notes`: the findings by level."""
    assert report.lint is not None
    bits = []
    for level in ("error", "warning", "note"):
        found = [f for f in report.lint.findings if f.level == level]
        expected = sum(1 for f in found if f.expected)
        word = level if len(found) == 1 else f"{level}s"
        bits.append(f"{len(found)} {word}" + (f" ({expected} expected)" if expected else ""))
    return bits
