"""Runs the eval and agent rows of a plan for the runner.

Fixed-response evals need no server: they are judged concurrently (the judge pool bounds the
calls, a few rows per pool slot are in flight at once).
Live rows (agent tests, evals without `response`) need the suite's servers: we open each server
they name once, with its own connection separate from the tool tests' (a tool test never sees
state an agent left behind, and vice versa), then run the live rows one after another, because
MCP servers are often stateful. A row whose model cannot be routed is deferred without starting
anything.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, AsyncExitStack, nullcontext
from typing import TYPE_CHECKING, cast

import anyio

from mcptest.agents.eval_rows import live_servers, nothing_to_grade, run_eval_row
from mcptest.calibrate.gate import CalibrationGating
from mcptest.errors import ServerNotReadyError
from mcptest.run.runner import Record, RunState, ServerFailed, ready_server
from mcptest.run.tapes import playing
from mcptest.suite.models import EvalSpec

if TYPE_CHECKING:  # the MCP client is a costly import: fixed-response evals never pay it
    from collections.abc import Mapping

    from mcptest.grade.grader import LlmGrading
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedTest
    from mcptest.plan import PlannedTest as Planned
    from mcptest.run.session import ServerConnection
    from mcptest.suite.models import SelectionSpec
    from mcptest.telemetry.hooks import Tracing

Key = tuple[str, str]
FIXED_ROWS_PER_CALL = 4
"""Fixed-response rows in flight per judge call the pool allows (`--concurrency`)."""
FIXED_ROWS_MIN = 16


class RowDriver:
    """The `RowRunner` the pipeline hands to the runner when the plan has eval or agent rows."""

    def __init__(self, *, llm: LlmGrading, engine: JudgeEngine, env: Mapping[str, str],
                 state: RunState, tracing: Tracing | None = None) -> None:
        self.llm = llm
        self.tracing = tracing
        self.engine = engine
        self.calibration = CalibrationGating(require=engine.options.require_calibration,
                                             evidence=engine.options.evidence)
        self.env = env
        self.state = state
        self.record: Record = lambda _: None
        self.server_failed: ServerFailed = lambda *_: None

    async def run(self, tests: list[PlannedTest], record: Record,
                  server_failed: ServerFailed) -> None:
        self.record, self.server_failed = record, server_failed
        fixed: list[PlannedTest] = []
        live: list[PlannedTest] = []
        for t in tests:  # one pass: `t not in fixed` compared every pair of rows
            is_fixed = isinstance(t.spec, EvalSpec) and t.spec.response is not None
            (fixed if is_fixed else live).append(t)
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._live, live)
            # Enough rows in flight to keep the judge pool busy, not one task per answer: 2,000
            # waiting rows held 36 MiB more at their peak (docs/reports.md, "Scale").
            slots = anyio.Semaphore(max(FIXED_ROWS_MIN, FIXED_ROWS_PER_CALL
                                        * self.engine.options.concurrency))
            done = anyio.Event()
            for t in fixed:
                await slots.acquire()
                if self.engine.client.pool.full and not done.is_set():
                    await self._first_wave_out(done)
                tg.start_soon(self._fixed, t, slots, done)

    async def _first_wave_out(self, done: anyio.Event) -> None:
        """With the pool full, the rows that wait for its slots are prepared only once the
        first wave is on the wire (or an answer came, or a row ended): preparing them (~0.1 ms
        each) between the first requests spread those over milliseconds, a delay every later
        wave inherits (docs/architecture.md, "Costs")."""
        client = self.engine.client
        signals = (client.first_sent(), client.pool.first_answer(), done)
        if any(s.is_set() for s in signals):
            done.set()
            return
        async with anyio.create_task_group() as tg:
            async def one(signal: anyio.Event) -> None:
                await signal.wait()
                tg.cancel_scope.cancel()

            for signal in signals:
                tg.start_soon(one, signal)
        done.set()

    async def _fixed(self, t: PlannedTest, slots: anyio.Semaphore, done: anyio.Event) -> None:
        try:
            with playing(self.engine.client.cassettes, t), self._traced(t):
                row = await run_eval_row(t, self.engine)
            self.record(self.calibration.apply_row(t, row))
        finally:
            done.set()
            slots.release()

    async def _live(self, rows: list[PlannedTest]) -> None:
        if not rows:
            return
        # agent and selection rows only: a run of fixed-response evals never imports them
        from mcptest.agents.agent_rows import agent_model

        routable = []
        for t in rows:
            if isinstance(t.spec, EvalSpec) and not t.spec.server:
                self.record(nothing_to_grade(t, self.engine.options.require_judge))
            elif agent_model(t, self.engine).unroutable is not None:
                await self._row(t, {})  # deferred (or failed under --require-judge) at once
            else:
                routable.append(t)
        if not routable:
            return
        async with AsyncExitStack() as stack:
            conns = await self._open(stack, routable)
            for t in routable:
                names = live_servers(t)
                keys = [(t.suite.display_path, n) for n in names]
                if all(k in conns for k in keys):
                    await self._row(t, {n: conns[k] for n, k in zip(names, keys, strict=True)})

    async def _open(self, stack: AsyncExitStack, rows: list[PlannedTest]
                    ) -> dict[Key, ServerConnection]:
        needed: dict[Key, list[PlannedTest]] = {}
        for t in rows:
            for n in live_servers(t):
                needed.setdefault((t.suite.display_path, n), []).append(t)
        conns: dict[Key, ServerConnection] = {}
        for key, users in needed.items():
            suite = users[0].suite
            spec = suite.suite.servers[key[1]]
            try:
                from mcptest.run.client_config import client_config
                from mcptest.run.sampler import ModelSampler
                from mcptest.run.session import ServerConnection

                sampler = ModelSampler(self.engine.client, suite.suite.judge)
                client = client_config(suite.suite, key[1], suite.path.parent, sampler)
                conn = await stack.enter_async_context(ServerConnection.open(
                    key[1], spec, base_dir=suite.path.parent, env=self.env, client=client,
                    tracing=self.tracing))
            except ServerNotReadyError as e:
                self.server_failed(key, spec, users, str(e))
                continue
            conns[key] = conn
            self.state.secrets.update(conn.secrets())
            self.state.servers.setdefault(key, ready_server(key[1], key[0], conn))
        return conns

    async def _row(self, t: PlannedTest, servers: dict[str, ServerConnection]) -> None:
        with playing(self.engine.client.cassettes, t), self._traced(t):
            for conn in servers.values():  # sampling its tool calls cause is this row's
                conn.client.begin(None)
            await self._run_row(t, servers)

    def _traced(self, t: Planned) -> AbstractContextManager[None]:
        """The row's test span, the parent of its model calls and tool calls (docs/tracing.md)."""
        if self.tracing is None:
            return nullcontext()
        return self.tracing.test(t.id, t.name, t.suite_file)

    async def _run_row(self, t: PlannedTest, servers: dict[str, ServerConnection]) -> None:
        from mcptest.agents.agent_rows import agent_model, run_agent_row, transcript_for, unfinished
        from mcptest.agents.selection_run import run_selection_row

        if t.kind == "selection":
            spec = cast("SelectionSpec", t.spec)
            self.record(await run_selection_row(t, self.engine, servers.get(spec.server)))
            return
        if t.kind != "eval":
            self.record(await run_agent_row(t, self.engine, self.llm, servers))
            return
        start = time.perf_counter()
        transcript = await transcript_for(t, agent_model(t, self.engine), servers)
        early = unfinished(t, transcript, start, self.engine.options.require_judge)
        self.record(early or self.calibration.apply_row(
            t, await run_eval_row(t, self.engine, transcript)))
