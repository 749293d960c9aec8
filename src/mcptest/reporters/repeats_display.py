"""How a repeated test's pass rate, its interval and pass@k read in the console and the PR
comment (docs/baseline.md, "Repeats"; docs/agents.md, "Repeats and pass@k").

Only scored runs count: a row says "k of n scored" when some runs gave no verdict, and "not
measured" when none did; the pass rate carries its Wilson 95% interval.
"""

from __future__ import annotations

from mcptest.report.models import RepeatStats, Report
from mcptest.reporters.escape import md_inline

#: Rows in the comment's table; the JSON report holds the rest.
MAX_ROWS = 20


def _ci(stats: RepeatStats) -> str:
    ci = stats.pass_rate_ci95
    return "" if ci is None else f" [{ci.low:.2f}, {ci.high:.2f}]"


def counted_text(stats: RepeatStats) -> str:
    """`passed 2/5`, or `passed 2/3 scored of 5 runs`, or `not measured: 0 of 5 runs scored`."""
    if stats.measured == 0:
        return f"not measured: 0 of {stats.runs} runs scored"
    text = f"passed {stats.passed}/{stats.measured}"
    return text if stats.measured == stats.runs else f"{text} scored of {stats.runs} runs"


def repeat_text(stats: RepeatStats) -> str:
    """`passed 2/5 · pass rate 0.40 [0.12, 0.77] · pass@1 0.40 · pass@5 1.00`, the interval
    being Wilson's 95%; the score's spread says how many runs it is over when not all."""
    parts = [counted_text(stats)]
    if stats.pass_rate is not None:
        parts.append(f"pass rate {stats.pass_rate:.2f}{_ci(stats)}"
                     + {"estimate": "", "lower_bound": " (gated on its lower bound)",
                        "corrected_lower_bound": " (gated on its corrected lower bound)"}[
                         stats.min_pass_rate_on])
    parts += [f"pass@{p.k} {p.value:.2f}" for p in stats.pass_at_k or []]
    if stats.score_mean is not None and stats.score_runs < stats.runs:
        parts.append(f"score mean {stats.score_mean:.2f} over {stats.score_runs} of "
                     f"{stats.runs} runs")
    return " · ".join(parts)


def repeats_block(report: Report) -> str:
    """`### Repeats`: one table row per repeated test, or "" when there is none."""
    shown = [(t, t.repeat) for t in report.tests if t.repeat]
    if not shown:
        return ""
    ks = sorted({p.k for _, stats in shown for p in stats.pass_at_k or []})
    corrected = any(len(t.corrected) for t, _ in shown)
    rows = ["### Repeats", "",
            "| test | runs | scored | passed | pass rate [95% CI] | "
            + ("judge's rate → corrected [95% CI] | " if corrected else "")
            + "".join(f"pass@{k} | " for k in ks),
            "|---|---|---|---|---|" + "---|" * (len(ks) + corrected)]
    for t, stats in shown[:MAX_ROWS]:
        at = {p.k: f"{p.value:.2f}" for p in stats.pass_at_k or []}
        rate = ("not measured" if stats.pass_rate is None
                else f"{stats.pass_rate:.2f}{_ci(stats)}")
        fixed = "<br>".join(f"{c.raw_rate:.2f} → {c.rate:.2f} [{c.ci95.low:.2f}, "
                            f"{c.ci95.high:.2f}]" for c in t.corrected)
        rows.append(f"| {md_inline(t.name, 120)} | {stats.runs} | {stats.measured} | "
                    f"{stats.passed} | {rate} | " + (f"{fixed} | " if corrected else "")
                    + "".join(f"{at.get(k, '')} | " for k in ks))
    if len(shown) > MAX_ROWS:
        rows += ["", f"{len(shown) - MAX_ROWS} more repeated test(s) in the JSON report."]
    return "\n".join(rows) + "\n\n"
