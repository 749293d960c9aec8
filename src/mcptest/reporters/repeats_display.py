"""How a repeated test's pass rate, its interval and pass@k read in the console and the PR
comment (docs/baseline.md, "Repeats"; docs/agents.md, "Repeats and pass@k").

Only scored runs count: a row says "k of n scored" when some runs gave no verdict, and "not
measured" when none did; the pass rate carries its Wilson 95% interval, and the gate says what it
held against `min_pass_rate` (`report/gate_words.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.report.gate_words import gate_held
from mcptest.reporters.escape import md_inline

if TYPE_CHECKING:
    from mcptest.report.models import RepeatStats, Report

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
    """`passed 2/5 · pass rate 0.40 [0.12, 0.77] · gate: 95% lower bound 0.12 < min_pass_rate
    0.80: not met · pass@1 0.40 · pass@5 1.00`, the interval being Wilson's 95%; the score's
    spread says how many runs it is over when not all."""
    parts = [counted_text(stats)]
    if stats.pass_rate is not None:
        parts.append(f"pass rate {stats.pass_rate:.2f}{_ci(stats)}")
        parts.append(f"gate: {gate_held(stats)}")
    parts += [f"pass@{p.k} {p.value:.2f}" for p in stats.pass_at_k or []]
    if stats.score_mean is not None and stats.score_runs < stats.runs:
        parts.append(f"score mean {stats.score_mean:.2f} over {stats.score_runs} of "
                     f"{stats.runs} runs")
    return " · ".join(parts)


def repeats_block(report: Report) -> str:
    """`### Repeats`: one table row per repeated test, or "" when there is none."""
    shown = [(t, t.repeat) for t in report.tests if t.repeat]
    adaptive = adaptive_line(report)
    lead = [md_inline(adaptive, 1500), ""] if adaptive else []
    if not shown:
        return "### Repeats\n\n" + "\n".join(lead) + "\n" if lead else ""
    ks = sorted({p.k for _, stats in shown for p in stats.pass_at_k or []})
    corrected = any(len(t.corrected) for t, _ in shown)
    rows = ["### Repeats", "", *lead,
            "| test | runs | scored | passed | pass rate [95% CI] | "
            + ("judge's rate → corrected [95% CI] | " if corrected else "")
            + "gate | " + "".join(f"pass@{k} | " for k in ks),
            "|---|---|---|---|---|---|" + "---|" * (len(ks) + corrected)]
    for t, stats in shown[:MAX_ROWS]:
        at = {p.k: f"{p.value:.2f}" for p in stats.pass_at_k or []}
        rate = ("not measured" if stats.pass_rate is None
                else f"{stats.pass_rate:.2f}{_ci(stats)}")
        fixed = "<br>".join(f"{c.raw_rate:.2f} → {c.rate:.2f} [{c.ci95.low:.2f}, "
                            f"{c.ci95.high:.2f}]" for c in t.corrected)
        rows.append(f"| {md_inline(t.name, 120)} | {stats.runs} | {stats.measured} | "
                    f"{stats.passed} | {rate} | " + (f"{fixed} | " if corrected else "")
                    + f"{gate_held(stats)} | " + "".join(f"{at.get(k, '')} | " for k in ks))
    if len(shown) > MAX_ROWS:
        rows += ["", f"{len(shown) - MAX_ROWS} more repeated test(s) in the JSON report."]
    return "\n".join(rows) + "\n\n"


def adaptive_line(report: Report) -> str | None:
    """`adaptive repeats: 12 row(s), 9 settled by their first run, 3 repeated (mean 4.3 runs;
    2 by the confidence sequence, 1 curtailed), 22 runs where a fixed 10 takes 120; flaky
    rather than changed: a, b` (docs/statistics.md). Test names are untrusted: each format
    escapes them."""
    a = report.summary.adaptive
    if a is None:
        return None
    words = {"sequence": "by the confidence sequence", "curtailed": "curtailed",
             "limit": f"at {a.most} runs", "budget": "at their budget share",
             "stopped": "when the run stopped"}
    repeated = a.rows - a.one_run
    how = ", ".join(f"{n} {words.get(k, k)}" for k, n in sorted(a.decided.items()))
    mean = f"mean {a.mean_runs_repeated:g} runs; " if a.mean_runs_repeated is not None else ""
    text = (f"adaptive repeats: {a.rows} row(s), {a.one_run} settled by one run, "
            f"{repeated} repeated" + (f" ({mean}{how})" if repeated else "")
            + f", {a.runs} runs where a fixed {a.most} takes {a.rows * a.most}")
    if a.flaky_not_changed:
        text += "; flaky rather than changed: " + ", ".join(a.flaky_not_changed[:10])
        if len(a.flaky_not_changed) > 10:
            text += f" and {len(a.flaky_not_changed) - 10} more"
    return text
