"""`--repeat N` and per-test `repeat:`: the plan run once per repetition, rows merged.

Repetition k runs every test asked to repeat at least k times, as a run of its own through
`arun_plan`: fresh server connections (a stateful server sees each repetition's tests in their
written order, as the first time), fresh tool calls, and fresh judge calls, because the verdict
cache is off after the first repetition unless `cache_repeats` (a cached verdict would measure
the cache, not the judge). Every repetition spends from the run's one budget ledger
(`llm/budget.py`), so the cap holds for the whole run.
An interrupted, budget-stopped or failed repetition ends the repeats; the report keeps what ran
(docs/baseline.md, "Repeats").
"""

from __future__ import annotations

from dataclasses import replace
from traceback import format_exc
from typing import TYPE_CHECKING

import anyio

from mcptest.grade.repeat_options import GateOn, RepeatOptions, adaptive_most
from mcptest.llm.budget import BudgetLedger
from mcptest.pipeline import (
    InjectedFault,
    RunOptions,
    RunOutcome,
    arun_plan,
)
from mcptest.plan import Plan, PlannedTest

if TYPE_CHECKING:
    from mcptest.grade.adaptive_rows import Adaptive
    from mcptest.report.models import Report, TestResult


def _adaptive(t: PlannedTest, options: RepeatOptions) -> bool:
    if t.kind == "selection":
        return False
    return t.spec.repeat == "adaptive" or (t.spec.repeat is None and options.adaptive is not None)


def _times(t: PlannedTest, options: RepeatOptions) -> int:
    """The most runs a test may take (an adaptive test's MAX: it usually takes fewer)."""
    if t.kind == "selection":  # it samples `k` times per prompt instead (docs/selection.md)
        return 1
    if _adaptive(t, options):
        return adaptive_most(options.adaptive, _min_rate(t, options), _gate_on(t, options))
    assert t.spec.repeat != "adaptive"
    return t.spec.repeat or options.repeat


def planned_times(t: PlannedTest, options: RepeatOptions) -> int:
    """The most runs `t` may take under `options` (`eval --explain`'s count)."""
    return _times(t, options)


def _min_rate(t: PlannedTest, options: RepeatOptions) -> float:
    own = t.spec.min_pass_rate
    return own if own is not None else options.min_pass_rate


def _gate_on(t: PlannedTest, options: RepeatOptions) -> GateOn:
    return t.spec.min_pass_rate_on or options.min_pass_rate_on


def _ks(t: PlannedTest, options: RepeatOptions) -> tuple[int, ...]:
    """The k of a repeated test's pass@k: its own `pass_at_k:`, else 1 and the repeat count for
    an agent test, else none (docs/agents.md, "Repeats and pass@k")."""
    if t.spec.pass_at_k:
        return tuple(t.spec.pass_at_k)
    return tuple(sorted({1, _times(t, options)})) if t.kind == "agent" else ()


def runs_of(t: PlannedTest, options: RepeatOptions) -> int:
    """How many times `t` runs (its repetitions)."""
    return _times(t, options)


def total_runs(plan: Plan, repeat: RepeatOptions) -> int:
    """How many test runs the repetitions make in all (the progress line's total)."""
    return sum(_times(t, repeat) for t in plan.tests)


def _all_repetitions(plan: Plan, options: RunOptions, repeat: RepeatOptions, most: int) -> str:
    """The header of a repeated run: the judge calls of every repetition together (each
    repetition's own header counts only its own)."""
    from mcptest.judging.plan_projection import project  # a run without judges never needs it

    p, _ = project(plan, options.env, lambda t: _times(t, repeat))
    bound = "unknown" if p.cost_bound_usd is None else f"${p.cost_bound_usd:.4f}"
    return (f"mcptest: up to {most} repetitions; judges: up to {p.calls} call(s) in all, "
            f"cost bound {bound}")


def run_repeated(plan: Plan, options: RunOptions, repeat: RepeatOptions) -> RunOutcome:
    """`arun_repeated` in an event loop of its own."""
    return anyio.run(arun_repeated, plan, options, repeat)


async def arun_repeated(plan: Plan, options: RunOptions, repeat: RepeatOptions) -> RunOutcome:
    """`arun_plan` once per repetition; one merged row per test that repeated. An adaptive
    test repeats only while `Adaptive` keeps it open."""
    most = max((_times(t, repeat) for t in plan.tests), default=1)
    if options.ledger is None:
        options = replace(options, ledger=BudgetLedger(options.judge.max_cost))
    if most > 1 and plan.needs_judge:
        options.log(_all_repetitions(plan, options, repeat, most))
    first = await arun_plan(plan, options)
    if most == 1:
        return with_cassettes(first, options)
    try:
        merged = await _repetitions(plan, options, repeat, first, most)
    except Exception as e:  # a bug of ours after the first repetition: still report that one
        return with_cassettes(internal_error_after(first, "repeating the run", e), options)
    return with_cassettes(merged, options)


async def _repetitions(plan: Plan, options: RunOptions, repeat: RepeatOptions,
                       first: RunOutcome, most: int) -> RunOutcome:
    """Repetitions 2..`most` after `first`, merged into one outcome."""
    from mcptest.grade.adaptive_rows import Adaptive
    outcomes = [first]
    adaptive = Adaptive([t for t in plan.tests if _adaptive(t, repeat)], repeat,
                        options.judge.max_cost, first.report)
    for k in range(2, most + 1):
        last = outcomes[-1].report.summary
        if last.interrupted or last.internal_error or last.budget_stopped:
            adaptive.stop()
            break
        sub = Plan(suites=plan.suites, selected_from=plan.selected_from,
                   tests=tuple(t for t in plan.tests if adaptive.wants(t.id) or (
                       not _adaptive(t, repeat) and _times(t, repeat) >= k)))
        if not sub.tests:
            break
        opts = options if repeat.cache_repeats else replace(
            options, judge=options.judge.model_copy(update={"cache_dir": None}))
        options.log(f"mcptest: repetition {k} of {most} ({len(sub.tests)} test(s))")
        outcomes.append(await arun_plan(sub, opts))
        adaptive.after(outcomes[-1].report)
    if options.inject_fault == "merge":
        raise InjectedFault("injected fault while merging the repetitions")
    return RunOutcome(
        _merged(plan, [o.report for o in outcomes], repeat, options.judge.max_cost, adaptive),
        frozenset().union(*(o.secrets for o in outcomes)),
        next((o.traceback for o in outcomes if o.traceback), None))


def _merged(plan: Plan, reports: list[Report], repeat: RepeatOptions,
            max_cost: float | None, adaptive: Adaptive) -> Report:
    from mcptest.grade.juror_independence import with_effective_jurors
    from mcptest.grade.repeated_row import merge_repetitions
    from mcptest.judging.run_agreement import agreements
    from mcptest.report.build import JudgeTotals, build_report
    rows: dict[str, list[TestResult]] = {}
    for r in reports:
        for t in r.tests:
            rows.setdefault(t.id, []).append(t)
    tests = []
    for p in plan.tests:
        reps = rows[p.id]
        if _adaptive(p, repeat):
            tests.append(adaptive.row(p, reps, _gate_on(p, repeat)))
            continue
        tests.append(merge_repetitions(reps, _min_rate(p, repeat), _ks(p, repeat),
                                       _gate_on(p, repeat))
                     if _times(p, repeat) > 1 else reps[0])
    tests = with_effective_jurors(tests)  # over every repetition's juries
    s = [r.summary for r in reports]
    first = reports[0]
    report = build_report(
        suites=first.suites, tests=tests, servers=first.servers,
        started_at=first.started_at, finished_at=reports[-1].finished_at,
        duration_ms=sum(x.duration_ms for x in s),
        judge=JudgeTotals(
            calls=sum(x.judge_calls for x in s), cache_hits=sum(x.cache_hits for x in s),
            cost_usd=sum(x.cost_usd for x in s), max_cost_usd=max_cost,
            budget_stopped=any(x.budget_stopped for x in s),
            projected_calls=sum(x.projected_judge_calls for x in s),
            cost_bound_usd=first.summary.cost_bound_usd,
            # every repetition's juries are units of the run's agreement, not the first's only
            **agreements(tests)),
        interrupted=next((x.interrupted for x in s if x.interrupted), None),
        internal_error=next((x.internal_error for x in s if x.internal_error), None),
        warnings=[w for r in reports for w in r.warnings], shard=first.shard)
    summary = adaptive.summary(report.tests)
    if summary is None:
        return report
    return report.model_copy(update={"summary": report.summary.model_copy(
        update={"adaptive": summary})})


def with_baseline_verdicts(repeat: RepeatOptions, baseline: Report | None) -> RepeatOptions:
    """`repeat` knowing which rows passed on the baseline (adaptive repeats compare a first run
    with them); rows the baseline did not score are left out."""
    if baseline is None:
        return repeat
    return replace(repeat, baseline_passed={
        t.id: t.status == "passed" for t in baseline.tests
        if t.status in ("passed", "failed", "error", "flaky")})


def internal_error_after(outcome: RunOutcome, doing: str, error: Exception) -> RunOutcome:
    """`outcome`, marked with a bug of ours met while `doing` something after it (exit 70)."""
    from mcptest.report.build import with_internal_error
    return replace(outcome, traceback=format_exc(), report=with_internal_error(
        outcome.report, f"{doing}: {type(error).__name__}: {error}"))


def with_cassettes(outcome: RunOutcome, options: RunOptions) -> RunOutcome:
    """After the whole run (every repetition): the cassettes of its finished rows written
    when recording, and what they did in the summary (docs/cassettes.md); the evidence the
    pull request changed named (`--evidence-base`)."""
    from mcptest.report.changed_evidence import mark_changed_evidence
    from mcptest.report.models import CassetteSummary
    outcome = replace(outcome, report=mark_changed_evidence(outcome.report, options.judge.evidence))
    tapes = options.cassettes
    if tapes is None:
        return outcome
    report = outcome.report
    # a row that never reached its model (gap environment: no key) keeps its old cassette
    finished = [t.id for t in report.tests
                if t.status in ("passed", "failed", "error", "flaky")
                and t.gap not in ("replay", "environment")]
    changed = tapes.save(finished)
    if changed:
        options.log(f"mcptest: {len(changed)} model cassette(s) written: {', '.join(changed)}"
                    if len(changed) <= 3 else f"mcptest: {len(changed)} model cassettes written "
                    f"(first {changed[0]})")
    tally = CassetteSummary(mode=tapes.mode, replayed=tapes.replayed, recorded=tapes.recorded,
                            written=len(changed),
                            diverged=sum(1 for t in report.tests if t.gap == "replay"))
    summary = report.summary.model_copy(update={"cassettes": tally})
    return replace(outcome, report=report.model_copy(update={"summary": summary}))
