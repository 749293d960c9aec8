"""How a repeated test's pass rate and pass@k read in the console and the PR comment.

Only rows that carry pass@k are shown (agent tests, and any test with `pass_at_k:`; docs/agents.md,
"Repeats and pass@k"); other repeated rows keep their `flaky` message and the JSON report.
"""

from __future__ import annotations

from mcptest.report.models import RepeatStats, Report
from mcptest.reporters.escape import md_inline

#: Rows in the comment's table; the JSON report holds the rest.
MAX_ROWS = 20


def pass_at_k_text(stats: RepeatStats) -> str:
    """`passed 2/5 · pass rate 0.40 · pass@1 0.40 · pass@5 1.00`."""
    parts = [f"passed {stats.passed}/{stats.runs}", f"pass rate {stats.pass_rate:.2f}"]
    parts += [f"pass@{p.k} {p.value:.2f}" for p in stats.pass_at_k or []]
    return " · ".join(parts)


def repeats_block(report: Report) -> str:
    """`### Repeats`: one table row per test with pass@k, or "" when there is none."""
    shown = [(t.name, t.repeat) for t in report.tests if t.repeat and t.repeat.pass_at_k]
    if not shown:
        return ""
    ks = sorted({p.k for _, stats in shown for p in stats.pass_at_k or []})
    rows = ["### Repeats", "",
            "| test | runs | passed | pass rate | " + " | ".join(f"pass@{k}" for k in ks) + " |",
            "|---|---|---|---|" + "---|" * len(ks)]
    for name, stats in shown[:MAX_ROWS]:
        at = {p.k: f"{p.value:.2f}" for p in stats.pass_at_k or []}
        rows.append(f"| {md_inline(name, 120)} | {stats.runs} | {stats.passed} | "
                    f"{stats.pass_rate:.2f} | " + " | ".join(at.get(k, "") for k in ks) + " |")
    if len(shown) > MAX_ROWS:
        rows += ["", f"{len(shown) - MAX_ROWS} more repeated test(s) in the JSON report."]
    return "\n".join(rows) + "\n\n"
