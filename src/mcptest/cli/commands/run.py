"""`mcptest run`: argv → `Options` → load → plan → `run_plan` → reports → exit code.

The steps between the options and the report are the Python API's too (`mcptest.api.flow`);
this module adds what only a command has: argv, progress on stderr, reporters, an exit code.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from mcptest.api.flow import apply_baseline, load_baseline, plan_for, run_options
from mcptest.api.options import options_of
from mcptest.api.paths import suite_paths
from mcptest.cli.compare_options import add_run_compare_arguments
from mcptest.cli.error_handler import to_stderr
from mcptest.cli.progress import progress_for
from mcptest.cli.run_arguments import add_run_arguments, reporter_outputs
from mcptest.errors import OutputNotWritten
from mcptest.exit_codes import ExitCode
from mcptest.repeats import run_repeated, total_runs, with_baseline_verdicts
from mcptest.reporters import REPORTERS

if TYPE_CHECKING:
    import argparse

    from mcptest.api.options import Options
    from mcptest.pipeline import RunOutcome
    from mcptest.report.models import Report
    from mcptest.run.signal_latch import SignalLatch

def add_arguments(p: argparse.ArgumentParser) -> None:
    add_run_arguments(p)
    add_run_compare_arguments(p)
    p.add_argument("--with-evals", action="store_true", help="also run the suites' evals")
    p.add_argument("--watch", action="store_true",
                   help="after the run, rerun the tests each change affects, servers kept warm "
                        "(needs mcptest[watch]; docs/watch.md)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return execute(args, evals=args.with_evals, tools=True, agents=True)


def execute(args: argparse.Namespace, *, evals: bool, tools: bool, agents: bool,
            judged_tools_only: bool = False) -> int:
    """The shared body of `run` and `eval`."""
    outputs = reporter_outputs(args)
    latch: SignalLatch | None = getattr(args, "signal_latch", None)
    options = options_of(vars(args), cli=True)
    if getattr(args, "watch", False):
        if latch is not None and latch.release() is not None:  # its runs take no signals
            return int(ExitCode.INTERRUPTED)
        from mcptest.cli.output import write_reports
        from mcptest.cli.watch import watch

        return watch(args, options, dict(os.environ),
                     suite_paths([*args.files, *args.config]), evals=evals, tools=tools,
                     agents=agents, write=lambda outcome: write_reports(
                         outcome.report, outputs, secrets=outcome.secrets))
    baseline = load_baseline(options)
    env = dict(os.environ)
    # what writes the reports, imported while the run waits for its first answer
    warm = ("mcptest.cli.output", *(REPORTERS[fmt] for fmt, _ in outputs))
    outcome, selected = _run(args, options, env, evals=evals, tools=tools, agents=agents,
                             judged_tools_only=judged_tools_only, baseline=baseline, warm=warm,
                             latch=latch)
    report = apply_baseline(outcome.report, baseline, options)
    from mcptest.cli.output import write_reports

    code = report.summary.exit_code if selected else int(ExitCode.NO_TESTS)
    written = "the reports were written; "
    try:
        write_reports(report, outputs, secrets=outcome.secrets)
    except OutputNotWritten as unwritten:  # 74, unless a bug of ours or a stop says more
        if code not in (ExitCode.INTERNAL_ERROR, ExitCode.INTERRUPTED):
            raise
        to_stderr(f"error: {unwritten}".replace("\n", "\nerror: "))
        written = ""
    if report.summary.internal_error is not None:
        if env.get("MCPTEST_DEBUG") and outcome.traceback:
            to_stderr(outcome.traceback.rstrip("\n"))
        to_stderr(f"internal error: {report.summary.internal_error} ({written}"
                  "set MCPTEST_DEBUG=1 for a traceback)")
    return code


def _run(args: argparse.Namespace, options: Options, env: dict[str, str], *, evals: bool,
         tools: bool, agents: bool, judged_tools_only: bool,
         baseline: Report | None = None, warm: tuple[str, ...] = (),
         latch: SignalLatch | None = None) -> tuple[RunOutcome, bool]:
    """Load, plan and run; (the outcome, whether any test was selected). The suites and the
    plan end with this call, so the reporters reuse their memory (docs/reports.md, "Scale")."""
    plan = plan_for(suite_paths([*args.files, *args.config]), options, env, tools=tools,
                    evals=evals, agents=agents, judged_tools_only=judged_tools_only)
    progress = progress_for(args, plan, total_runs(plan, options.repeats))
    run_opts = replace(run_options(options, env, progress=progress, log=progress.log,
                                   plan=plan, handle_signals=True), warm=warm, signals=latch)
    outcome = run_repeated(plan, run_opts, with_baseline_verdicts(options.repeats, baseline))
    progress.close()
    return outcome, bool(plan.tests)
