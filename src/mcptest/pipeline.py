"""The one pipeline entry: a plan and its options in, the canonical report out.

`run_plan` (`arun_plan` in a running event loop) builds the judging (only when the plan needs
a judge), the tool-test runner and the eval/agent row driver, hands them to each other, runs
until done or until SIGTERM/SIGINT, and always returns a report: a fault of our own is caught
here, the report says so and carries exit code 70 (docs/decisions.md, "Exit codes").
`mcptest run` and `mcptest eval` are this call between argv and the reporters, `mcptest.run`
and the pytest plugin between Python and the report (docs/architecture.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from traceback import format_exc
from typing import TYPE_CHECKING, Literal

import anyio

from mcptest.errors import McpTestError
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.known_secrets import known_secrets
from mcptest.plan import SERVER_KINDS
from mcptest.report.redact import redact_text
from mcptest.run.runner import Runner, RunState
from mcptest.run.signal_latch import SignalLatch
from mcptest.run.tapes import playing
from mcptest.run.warm import AFTER_ANSWER, warm_now, warm_while_waiting
from mcptest.telemetry.hooks import Tracing, wanted

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

    from mcptest.judging.judging import Judging
    from mcptest.llm.budget import BudgetLedger
    from mcptest.llm.cassette import Cassettes
    from mcptest.plan import Plan
    from mcptest.report.models import Report, TestResult
    from mcptest.run.server_pool import ServerPool
    from mcptest.telemetry.otel import OtelTracing

CLOSE_S = 2.0
"""At most this long to close the judge connections at the end of a run (a TLS peer that
went away must not hold up the reports)."""


INJECT_FAULT_ENV = "MCPTEST_INJECT_FAULT"
"""Tests only: `1` makes a run fail with an internal error after its first test, `merge` when
its repetitions are merged (`InjectedFault`)."""
FAULT_PLACES: dict[str, Literal["test", "merge"]] = {"1": "test", "merge": "merge"}


class InjectedFault(McpTestError, RuntimeError):
    """Raised on purpose by `RunOptions.inject_fault`: how tests prove an internal error exits
    70 with its reports written (never used outside tests)."""


@dataclass(frozen=True)
class RunOptions:
    """Everything a run needs besides its plan (the CLI fills it from argv and the environment;
    nothing below the CLI reads either)."""

    judge: JudgeOptions = field(default_factory=JudgeOptions)
    """The run's judge settings, built once where the run's options are resolved
    (`api/flow.py` `run_options`) and handed to the judging as they are; the plan adds only
    what it decides (`judge_options`). Their `env` is the run's environment (`env`)."""
    progress: Callable[[TestResult], None] | None = None
    """Called once per finished test, as it finishes."""
    log: Callable[[str], None] = lambda _: None
    """One line for the operator (the header, server errors, signals)."""
    handle_signals: bool = False
    """Stop on SIGTERM/SIGINT (the CLI asks), through `signals` or a latch of the run's own for
    the run's length (main thread). A library call leaves the process's signals alone."""
    signals: SignalLatch | None = None
    """The CLI's latch, held from the command's first line (`run/signal_latch.py`): a signal
    that came before the run stops it as it starts."""
    inject_fault: Literal["test", "merge"] | None = None
    """Tests only: raise `InjectedFault` when the first test finishes, or when repetitions are
    merged (`INJECT_FAULT_ENV`)."""
    cassettes: Cassettes | None = None
    """`--models`: the model cassettes every repetition of the run shares (docs/cassettes.md)."""
    servers: ServerPool | None = None
    """`--watch`: servers kept warm from one run to the next (docs/watch.md)."""
    run_max_cost: float | None = None
    """With a shard: the whole run's cap, `judge.max_cost` being this shard's slice of it."""
    ledger: BudgetLedger | None = None
    """The run's one budget ledger, shared by its repetitions and a pytest session's files;
    None: the run makes its own from `judge.max_cost` (`llm/budget.py`)."""
    warm: tuple[str, ...] = ()
    """Modules the caller uses after the run (its reporters): imported with the run's own
    while the first judge request waits for its answer (`run/warm.py`)."""

    @property
    def env(self) -> Mapping[str, str]:
        """The run's environment: servers start with it, judges find their keys in it."""
        return self.judge.env


@dataclass(frozen=True)
class RunOutcome:
    report: Report
    secrets: frozenset[str]
    """Values the reporters must redact (server tokens, judge keys)."""
    traceback: str | None = None
    """Of an internal error, for `MCPTEST_DEBUG=1`."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def header(plan: Plan, judging: Judging | None, tapes: Cassettes | None = None) -> str:
    cases = sum(1 for t in plan.tests if t.case is not None)
    line = (f"mcptest: {len(plan.tests)} of {plan.selected_from} tests"
            + (f" ({cases} from case tables)" if cases else "")
            + f" from {len(plan.suites)} file(s), {len(plan.server_keys())} server(s)")
    if tapes is not None and tapes.mode == "replay":  # nothing is projected: nothing is sent
        return line + "; models: replayed from their cassettes, no request is sent"
    models = f"; models: {tapes.mode} (cassettes)" if tapes is not None else ""
    return line + (f"; {judging.header()}" if judging is not None else "") + models


def run_plan(plan: Plan, options: RunOptions) -> RunOutcome:
    """Run `plan` in an event loop of its own (`arun_plan` inside one that is running)."""
    return anyio.run(arun_plan, plan, options)


async def arun_plan(plan: Plan, options: RunOptions) -> RunOutcome:
    """Run `plan`; never raises for a fault during the run (the report carries it). Errors in
    setting up (an unpriced model under `--max-cost`) raise before anything starts.
    The judge's stack (model client, engine, evals) is imported only by a plan that judges."""
    known = known_secrets((s.suite for s in plan.suites), options.env)
    judging: Judging | None = None
    if plan.needs_judge:
        from mcptest.judging.judging import Judging, judge_options

        judging = Judging(plan, judge_options(plan, options.judge, known), options.cassettes,
                          options.ledger)
    options.log(header(plan, judging, options.cassettes))
    started, t0 = _now(), time.perf_counter()
    state = RunState()
    tracing = _tracing(plan, options, state, known)
    if judging is not None:
        judging.engine.client.tracing = tracing
    fault = trace = None
    shift: list[str] = []

    async def recheck() -> None:  # its judge calls are part of the run: a signal stops them
        if judging is not None:
            shift.extend(await judging.shift.finish(
                state.results, lambda t: playing(options.cassettes, t)))
    try:
        interrupted = await _run(plan, options, judging, state, tracing, recheck)
    except Exception as e:  # a bug of ours: still report what the run had
        cause = _first_cause(e)
        fault, interrupted, trace = f"{type(cause).__name__}: {cause}", None, format_exc()
    # the reports' secrets, and those of servers that never got as far as a connection (a
    # server that exits at start may print its `--token=…` in the stderr this line quotes)
    secrets = frozenset(state.secrets | set(known))
    for line in state.server_errors:
        options.log(f"error: {redact_text(line, secrets)}")
    # what follows the run was imported while its first request was in flight (run/warm.py)
    from mcptest.grade.juror_independence import with_effective_jurors
    from mcptest.report.build import JudgeTotals, build_report
    from mcptest.report.models import ShardInfo
    from mcptest.suite.advice import load_warnings
    tests = _rows(plan, state, interrupted or ("internal error" if fault else None))
    if judging is not None:
        tests = with_effective_jurors(tests)
    report = build_report(
        suites=[s.display_path for s in plan.suites], tests=tests,
        servers=list(state.servers.values()), started_at=started, finished_at=_now(),
        duration_ms=(time.perf_counter() - t0) * 1000,
        judge=judging.totals(tests) if judging is not None
        else JudgeTotals(max_cost_usd=options.judge.max_cost),
        interrupted=interrupted, internal_error=fault,
        shard=ShardInfo(index=plan.shard[0], count=plan.shard[1], plan=list(plan.unsharded),
                        run_max_cost_usd=options.run_max_cost)
        if plan.shard is not None else None,
        warnings=[w for s in plan.suites for w in load_warnings(s)]
        + (judging.calibration.warnings() + judging.budget_warnings() + shift
           if judging is not None else []))
    if tracing is not None:  # the exporter's last send blocks: off the event loop
        await anyio.to_thread.run_sync(tracing.close, report.summary.exit_code,
                                       bool(interrupted or fault))
    return RunOutcome(report, secrets, trace)


def _tracing(plan: Plan, options: RunOptions, state: RunState,
             known: tuple[str, ...]) -> OtelTracing | None:
    """The run's trace when the standard OTLP variables ask for one (docs/tracing.md); the
    OpenTelemetry SDK is imported only then."""
    if not wanted(options.env):
        return None
    from mcptest.telemetry.otel import OtelTracing
    from mcptest.version import __version__

    return OtelTracing(options.env, [s.display_path for s in plan.suites], __version__,
                       lambda text: redact_text(text, set(known) | state.secrets))


def _first_cause(e: BaseException) -> BaseException:
    """The exception inside task-group wrappers, which name no cause of their own."""
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def _rows(plan: Plan, state: RunState, stopped_by: str | None) -> list[TestResult]:
    """One row per planned test, in plan order; unfinished tests are `skipped`."""
    from mcptest.grade.rows import test_result
    why = f"interrupted ({stopped_by})" if stopped_by else "the run stopped early"
    return [state.results.get(t.id) or test_result(t, "skipped", duration_ms=0.0,
                                                   message=f"not run: {why}")
            for t in plan.tests]


async def _run(plan: Plan, options: RunOptions, judging: Judging | None, state: RunState,
               tracing: Tracing | None, recheck: Callable[[], Awaitable[None]]) -> str | None:
    """Run until done or until SIGTERM/SIGINT; returns the interruption cause, if any."""
    rows = None
    if judging is not None:
        from mcptest.agents.driver import RowDriver

        rows = RowDriver(llm=judging, engine=judging.engine, env=options.env, state=state,
                         tracing=tracing)
    runner = Runner(plan, env=options.env, llm=judging, state=state, rows=rows,
                    progress=_progress(options),
                    models=judging.engine.client if judging is not None else None,
                    tracing=tracing, pool=options.servers)

    async def body() -> None:
        await _go(runner, judging, options.warm)
        await recheck()

    if not options.handle_signals:
        await body()
        return None
    latch = options.signals or SignalLatch().install()
    interrupted = latch.take()
    try:
        if interrupted is None:
            async with anyio.create_task_group() as tg:

                async def watch() -> None:
                    nonlocal interrupted
                    interrupted = await latch.wait()
                    options.log(f"mcptest: {interrupted} received: stopping, writing reports")
                    tg.cancel_scope.cancel()

                tg.start_soon(watch)
                await body()
                tg.cancel_scope.cancel()
        else:
            options.log(f"mcptest: {interrupted} received: stopping, writing reports")
    finally:
        if latch is not options.signals:
            held = latch.release()
            interrupted = interrupted or held
    return interrupted


async def _go(runner: Runner, judging: Judging | None, warm: tuple[str, ...]) -> None:
    if judging is None:
        await runner.run()
        return
    await judging.start()
    try:
        modules = AFTER_ANSWER + _spec_models(runner.plan) + warm
        timed = any(t.kind in SERVER_KINDS for t in runner.plan.tests)
        if timed:  # no first import may hold the loop while a request is timed (run/warm.py)
            warm_now(modules)
        async with anyio.create_task_group() as tg:
            if not timed:
                tg.start_soon(warm_while_waiting, judging.engine.client.first_sent(), modules)
            await runner.run()
            tg.cancel_scope.cancel()
    finally:  # also when SIGTERM cancelled the run; closing a socket takes no time
        with anyio.move_on_after(CLOSE_S, shield=True):
            await judging.close()


def _spec_models(plan: Plan) -> tuple[str, ...]:
    """The plan's test models (`module:Class`): a row's definition hash dumps its test, and the
    suite was validated section by section, so each model's own serializer is built on first
    use, once an answer is back, unless the warm-up builds it first."""
    kinds = dict.fromkeys(type(t.spec) for t in plan.tests)
    return tuple(f"{k.__module__}:{k.__qualname__}" for k in kinds)


def _progress(options: RunOptions) -> Callable[[TestResult], None] | None:
    if options.inject_fault != "test":
        return options.progress

    def faulty(result: TestResult) -> None:
        raise InjectedFault(f"injected fault after {result.name!r} finished")

    return faulty
