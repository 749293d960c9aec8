"""`--shard-weights REPORT.json`: the previous run's durations, to balance shards by time.

A CI matrix of shards split by count puts slow tests together by chance; split by the durations
a previous report measured (longest first, `plan.balanced_shards`), the shards end together
(docs/action.md, "Shards"). A merged report holds every test's duration, so the last merged
run's report is the natural input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path


def read_weights(path: Path) -> dict[str, float]:
    """Test id → duration in ms from a JSON report; a report we cannot read is a usage error."""
    from mcptest.errors import ReportError
    from mcptest.report.io import read_report

    try:
        report = read_report(path)
    except (OSError, ReportError) as e:
        raise UsageError(f"--shard-weights {path}: {e}") from None
    return {t.id: t.duration_ms for t in report.tests}
