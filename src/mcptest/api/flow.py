"""The steps of a run between its options and its report, shared by `mcptest run`/`eval`, the
Python API (`mcptest.run`, `mcptest.arun`) and the pytest plugin: suite files → plan →
`RunOptions` → the one pipeline entry (through repeats) → the baseline comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mcptest.api.options import Options
    from mcptest.llm.budget import BudgetLedger
    from mcptest.pipeline import RunOptions
    from mcptest.plan import Plan
    from mcptest.report.models import Report, TestResult


def plan_for(files: list[Path], options: Options, env: Mapping[str, str], *, tools: bool = True,
             agents: bool = True, evals: bool | None = None,
             judged_tools_only: bool = False) -> Plan:
    """Load the suites and select what runs (`evals` None: as `options.with_evals` says)."""
    from mcptest.api.shard_weights import read_weights
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    suites = load_suites(files, env=env)
    return build_plan(
        suites, filter=options.filter, tags=list(options.tag), skip_tags=list(options.skip_tag),
        shard=options.shard_pair,
        shard_weights=read_weights(options.shard_weights) if options.shard_weights else None,
        tools=tools, evals=options.with_evals if evals is None else evals, agents=agents,
        judged_tools_only=judged_tools_only)


def run_options(options: Options, env: Mapping[str, str], *,
                progress: Callable[[TestResult], None] | None = None,
                log: Callable[[str], None] | None = None,
                handle_signals: bool = False, ledger: BudgetLedger | None = None,
                plan: Plan | None = None) -> RunOptions:
    """The pipeline's options. Signals stay the caller's unless it hands them over (the CLI).
    `ledger`: a budget shared with other runs (a pytest session's files); None: its own.
    `plan`: the run's, which a sharded run's cap is sliced by (`shard_cap`)."""
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.pipeline import FAULT_PLACES, INJECT_FAULT_ENV, RunOptions
    from mcptest.readback.evidence import evidence_for

    cap, run_cap = shard_cap(plan, options, env, log or (lambda _: None))
    evidence = evidence_for(options.evidence_base, options.distrust_changed_evidence, env,
                            Path.cwd(), options.evidence_changed_files)
    # the one place the run's judge settings are built; `concurrency` only when given, so the
    # suites' `judge.concurrency` decides otherwise (`judging.judging.judge_options`)
    pool = {"concurrency": options.concurrency} if options.concurrency is not None else {}
    judge = JudgeOptions(
        env=dict(env), max_cost=cap, cache_dir=None if options.no_cache else options.cache_dir,
        # recording without a reachable model records nothing: such a test fails, not defers
        require_judge=options.require_judge or options.models == "record",
        redact_candidates=options.redact_candidates,
        require_calibration=options.require_calibration, on_shift=options.on_shift,
        evidence=evidence, **pool)
    cassettes = None
    if options.models:  # a run without --models never loads the cassette machinery
        from mcptest.llm.cassette import Cassettes

        cassettes = Cassettes(options.models, options.cassette_dir, evidence)
    return RunOptions(
        judge=judge, run_max_cost=run_cap, cassettes=cassettes,
        progress=progress, log=log or (lambda _: None), handle_signals=handle_signals,
        inject_fault=FAULT_PLACES.get(env.get(INJECT_FAULT_ENV, "")), ledger=ledger)


def shard_cap(plan: Plan | None, options: Options, env: Mapping[str, str],
              log: Callable[[str], None]) -> tuple[float | None, float | None]:
    """This process's cap and, for a shard, the whole run's: `--max-cost` with `--shard i/n`
    is the run's, and the shard spends at most its slice (said in the log); with
    `--max-cost-per-shard` the shard has that cap of its own (docs/scale.md)."""
    if options.max_cost_per_shard is not None:
        return options.max_cost_per_shard, None
    if options.max_cost is None or plan is None or plan.shard is None:
        return options.max_cost, None
    from mcptest.judging.shard_slices import shard_slices
    from mcptest.repeats import runs_of

    slices = shard_slices(plan, options.max_cost, env, lambda t: runs_of(t, options.repeats))
    i, n = plan.shard
    log(f"mcptest: shard {i}/{n} may spend ${slices[i - 1]:.6f} of the run's "
        f"${options.max_cost:.6f} cap (slices, in proportion to each shard's projected worst "
        f"case: {', '.join(f'${s:.6f}' for s in slices)})")
    return slices[i - 1], options.max_cost


def load_baseline(options: Options) -> Report | None:
    """The baseline report, read before anything runs (a bad file is a `ReportError` at once)."""
    if options.baseline is None:
        return None
    from mcptest.report.io import read_report

    return read_report(options.baseline)


def apply_baseline(report: Report, old: Report | None, options: Options) -> Report:
    """The run compared with its baseline, when there is one, and gated by `--fail-on`."""
    if old is None and not options.comparison.fail_on_not_measured:
        return report
    from mcptest.compare.attach import with_baseline, with_fail_on_not_measured

    if old is not None:
        try:
            report = with_baseline(report, old, options.comparison,
                                   source=str(options.baseline),
                                   note=options.baseline_note or None)
        except Exception as e:  # a bug comparing must not cost the run's reports (exit 70)
            from mcptest.report.build import with_internal_error

            return with_internal_error(
                report, f"comparing with the baseline: {type(e).__name__}: {e}")
    if options.comparison.fail_on_not_measured:
        report = with_fail_on_not_measured(report)
    return report


async def arun_report(plan: Plan, options: Options, env: Mapping[str, str], *,
                      progress: Callable[[TestResult], None] | None = None,
                      log: Callable[[str], None] | None = None,
                      baseline: Report | None = None,
                      ledger: BudgetLedger | None = None) -> Report:
    """Run `plan` and return its report compared with `baseline` and redacted: what Python
    callers get (the CLI redacts as it writes, `cli/output.py`). `ledger`: see `run_options`."""
    from mcptest.repeats import arun_repeated, with_baseline_verdicts
    from mcptest.report.redact import redact_report

    outcome = await arun_repeated(
        plan, run_options(options, env, progress=progress, log=log, ledger=ledger, plan=plan),
        with_baseline_verdicts(options.repeats, baseline))
    return redact_report(apply_baseline(outcome.report, baseline, options), outcome.secrets)
