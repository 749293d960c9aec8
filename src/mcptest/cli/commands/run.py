"""`mcptest run`: load → plan → run → grade → report, with reports written whatever happens."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import anyio

from mcptest.cli.options import add_run_arguments, reporter_outputs, suite_files
from mcptest.cli.output import write_reports
from mcptest.exit_codes import ExitCode
from mcptest.plan import Plan, build_plan, parse_shard
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.models import Report, TestResult
from mcptest.run.runner import Runner, RunState


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("run", help="run tool tests and agent tests (evals too with --with-evals)")
    add_run_arguments(p)
    p.add_argument("--with-evals", action="store_true", help="also run the suites' evals")
    p.set_defaults(handler=run, evals=False, tools=True, agents=True)


def run(args: argparse.Namespace) -> int:
    return execute(args, evals=args.with_evals, tools=True, agents=True)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def execute(args: argparse.Namespace, *, evals: bool, tools: bool, agents: bool) -> int:
    """The shared body of `run` and `eval`."""
    from mcptest.suite.load import load_suites

    outputs = reporter_outputs(args)
    env = dict(os.environ)
    suites = load_suites(suite_files(args), env=env)
    plan = build_plan(
        suites, filter=args.filter, tags=args.tag, skip_tags=args.skip_tag,
        shard=parse_shard(args.shard) if args.shard else None,
        tools=tools, evals=evals, agents=agents,
    )
    started, t0 = _now(), time.perf_counter()
    judge = _judge_setup(plan, args, env)
    log(_header(plan, judge))

    state = RunState()
    progress = _progress_line if args.verbose else None
    fault: BaseException | None = None
    try:
        interrupted = anyio.run(_run, plan, env, judge, state, progress)
    except Exception as e:  # a bug of ours: still write what the run had, then report it
        fault, interrupted = e, f"fault: {type(e).__name__}: {e}"
    for line in state.server_errors:
        log(f"error: {line}")
    report = _finish(plan, state, judge, started, (time.perf_counter() - t0) * 1000, interrupted)
    write_reports(report, outputs, secrets=state.secrets | _judge_secrets(env))
    if fault is not None:
        raise fault
    return report.summary.exit_code if plan.tests else int(ExitCode.NO_TESTS)


def _judge_setup(plan: Plan, args: argparse.Namespace, env: dict[str, str]) -> Any:
    """The judge grading for this run, or None when no test needs a judge (litellm stays out)."""
    if not plan.needs_judge:
        return None
    from mcptest.grade.judging import make_judging

    return make_judging(plan, args, env)


def _judge_secrets(env: dict[str, str]) -> set[str]:
    names = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
             "MISTRAL_API_KEY", "MCPTEST_JUDGE_API_KEY", "GITHUB_TOKEN", "INPUT_GITHUB-TOKEN")
    return {env[n] for n in names if len(env.get(n, "")) >= 4}


def _header(plan: Plan, judge: Any) -> str:
    servers = len(plan.server_keys())
    line = (f"mcptest: {len(plan.tests)} of {plan.selected_from} tests from "
            f"{len(plan.suites)} file(s), {servers} server(s)")
    if judge is not None:
        line += f"; {judge.header()}"
    return line


def _progress_line(result: TestResult) -> None:
    log(f"mcptest: {result.status:<8} {result.name} ({result.duration_ms:.0f} ms)")


async def _run(
    plan: Plan, env: dict[str, str], judge: Any, state: RunState,
    progress: Callable[[TestResult], None] | None,
) -> str | None:
    """Run until done or until SIGTERM/SIGINT; returns the interruption cause, if any."""
    interrupted: str | None = None
    runner = Runner(plan, env=env, llm=judge, state=state, progress=progress)
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                nonlocal interrupted
                async for sig in signals:
                    interrupted = signal.Signals(sig).name
                    log(f"mcptest: {interrupted} received: stopping, writing reports")
                    tg.cancel_scope.cancel()
                    return

            tg.start_soon(watch)
            try:
                if judge is not None:
                    await judge.start()
                await runner.run()
            finally:
                if judge is not None:
                    with anyio.CancelScope(shield=True):
                        await judge.aclose()
            tg.cancel_scope.cancel()
    return interrupted


def _finish(
    plan: Plan, state: RunState, judge: Any, started: str, duration_ms: float,
    interrupted: str | None,
) -> Report:
    from mcptest.run.runner import result_for

    tests: list[TestResult] = []
    for t in plan.tests:
        result = state.results.get(t.id)
        if result is None:
            why = f"interrupted ({interrupted})" if interrupted else "the run stopped early"
            result = result_for(t, "skipped", message=f"not run: {why}")
        tests.append(result)
    totals = judge.totals(tests) if judge is not None else JudgeTotals()
    return build_report(
        suites=[s.display_path for s in plan.suites],
        tests=tests,
        servers=list(state.servers.values()),
        started_at=started,
        finished_at=_now(),
        duration_ms=duration_ms,
        judge=totals,
        interrupted=interrupted,
    )
