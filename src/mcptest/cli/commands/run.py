"""`mcptest run`: argv → options → load → plan → `run_plan` → reports → exit code."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from mcptest.cli.compare_options import (
    add_run_compare_arguments,
    apply_baseline,
    load_baseline,
    repeat_options,
)
from mcptest.cli.options import add_run_arguments, reporter_outputs, suite_files
from mcptest.cli.output import write_reports
from mcptest.cli.progress import progress_for
from mcptest.cli.shard_weights import read_weights
from mcptest.exit_codes import ExitCode
from mcptest.plan import build_plan, parse_shard

if TYPE_CHECKING:
    from mcptest.pipeline import RunOutcome

INJECT_FAULT_ENV = "MCPTEST_INJECT_FAULT"
"""Set to 1 to make the run fail with an internal error after its first test (tests only)."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run tool tests and agent tests (evals too with --with-evals)")
    add_run_arguments(p)
    add_run_compare_arguments(p)
    p.add_argument("--with-evals", action="store_true", help="also run the suites' evals")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return execute(args, evals=args.with_evals, tools=True, agents=True)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def execute(args: argparse.Namespace, *, evals: bool, tools: bool, agents: bool,
            judged_tools_only: bool = False) -> int:
    """The shared body of `run` and `eval`."""
    outputs = reporter_outputs(args)
    baseline = load_baseline(args)
    env = dict(os.environ)
    outcome, selected = _run(args, env, evals=evals, tools=tools, agents=agents,
                             judged_tools_only=judged_tools_only)
    report = apply_baseline(outcome.report, baseline, args)
    write_reports(report, outputs, secrets=outcome.secrets)
    if report.summary.internal_error is not None:
        if env.get("MCPTEST_DEBUG") and outcome.traceback:
            sys.stderr.write(outcome.traceback)
        log(f"internal error: {report.summary.internal_error} (the reports were written; "
            "set MCPTEST_DEBUG=1 for a traceback)")
    return report.summary.exit_code if selected else int(ExitCode.NO_TESTS)


def _run(args: argparse.Namespace, env: dict[str, str], *, evals: bool, tools: bool,
         agents: bool, judged_tools_only: bool) -> tuple[RunOutcome, bool]:
    """Load, plan and run; (the outcome, whether any test was selected). The suites and the
    plan end with this call, so the reporters reuse their memory (docs/reports.md, "Scale")."""
    from mcptest.pipeline import RunOptions
    from mcptest.repeats import run_repeated, total_runs
    from mcptest.suite.load import load_suites

    suites = load_suites(suite_files(args), env=env)
    plan = build_plan(
        suites, filter=args.filter, tags=args.tag, skip_tags=args.skip_tag,
        shard=parse_shard(args.shard) if args.shard else None,
        shard_weights=read_weights(args.shard_weights) if args.shard_weights else None,
        tools=tools, evals=evals, agents=agents, judged_tools_only=judged_tools_only,
    )
    repeat = repeat_options(args)
    progress = progress_for(args, plan, total_runs(plan, repeat))
    options = RunOptions(
        env=env, concurrency=args.concurrency, max_cost=args.max_cost,
        cache_dir=None if args.no_cache else args.cache_dir, require_judge=args.require_judge,
        redact_candidates=args.redact_candidates,
        require_calibration=args.require_calibration,
        progress=progress, log=progress.log,
        inject_fault=env.get(INJECT_FAULT_ENV) == "1",
    )
    outcome = run_repeated(plan, options, repeat)
    progress.close()
    return outcome, bool(plan.tests)
