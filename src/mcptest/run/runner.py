"""Drive a plan: one connection per server, its tests in order, grading overlapped with calls.

Servers run concurrently (bounded). Within a server, tool calls go one after another in the order
written, because MCP servers are often stateful (create, then read); the grading of each answer,
judge calls included, runs in the background so the next call does not wait for a judge.

Results land in a `RunState` as they complete, so an interrupted run can still report what it had.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from mcptest.errors import ServerNotReadyError
from mcptest.grade.absent import tool_error_line, unknown_name
from mcptest.grade.diagnose import gap_category, is_tool_error
from mcptest.grade.grader import LlmGrading, grade_test, test_verdict
from mcptest.grade.rows import server_report, since_ms, test_result
from mcptest.grade.structural import StructuralTier
from mcptest.plan import SERVER_KINDS
from mcptest.report.models import ServerReport, TestResult
from mcptest.run.tapes import playing, replay_verdict
from mcptest.suite.models import ListTest, PromptTest, RemoteServer, ResourceTest, ToolTest

if TYPE_CHECKING:
    from mcptest.llm.model_client import ModelClient
    from mcptest.plan import Plan, PlannedTest
    from mcptest.run.client_side import Exchange
    from mcptest.run.requests import CallOutcome
    from mcptest.run.server_pool import ServerPool
    from mcptest.run.session import ServerConnection
    from mcptest.run.timeline import Exchanged
    from mcptest.telemetry.hooks import Tracing

DEFAULT_TEST_TIMEOUT = 30.0
# Start-up failures that the CI environment must fix (gap `environment`, not `transport`).
ENVIRONMENT_MARKERS = ("command not found", "is not set", "not executable", "does not exist")


@dataclass
class RunState:
    """Everything the run has produced so far; read by the report builder at any time."""

    results: dict[str, TestResult] = field(default_factory=dict)
    servers: dict[tuple[str, str], ServerReport] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    not_ready: bool = False
    server_errors: list[str] = field(default_factory=list)
    """One line per server that never became ready: `file:line:col: servers.x.command: cause`."""


def _transport_name(spec: Any) -> str:
    if isinstance(spec, RemoteServer):
        return spec.transport
    return "stdio"


def _produced(outcome: CallOutcome) -> dict[str, Any]:
    if outcome.error is not None:
        return {"error": outcome.error}
    if outcome.result is None and outcome.task is not None:
        return {}  # a cancelled task: no answer, only `task`
    return {"result": outcome.result}


Record = Callable[[TestResult], None]
ServerFailed = Callable[[tuple[str, str], Any, list["PlannedTest"], str], None]


class RowRunner(Protocol):
    """Runs the eval and agent rows of a plan (the pipeline hands one in: see
    `mcptest.agents.driver`); tool tests never need it."""

    async def run(self, tests: list[PlannedTest], record: Record,
                  server_failed: ServerFailed) -> None: ...


def ready_server(name: str, suite_file: str, conn: ServerConnection) -> ServerReport:
    """The report row of a server connection that became ready."""
    return server_report(name, suite_file, conn.transport,
                         protocol_version=conn.protocol_version, server_name=conn.server_name,
                         server_version=conn.server_version, startup_ms=conn.startup_ms,
                         tools=conn.tools)


class Runner:
    """Runs a plan and records graded results: tool tests here, one task per server; eval and
    agent rows through the `RowRunner` it is given (their own connections)."""

    def __init__(
        self,
        plan: Plan,
        *,
        env: Mapping[str, str],
        llm: LlmGrading | None,
        state: RunState,
        rows: RowRunner | None = None,
        server_concurrency: int = 4,
        progress: Callable[[TestResult], None] | None = None,
        models: ModelClient | None = None,
        tracing: Tracing | None = None,
        pool: ServerPool | None = None,
    ) -> None:
        self.plan = plan
        self.tracing = tracing
        self.pool = pool
        """`--watch`: the servers kept warm across runs (run/server_pool.py)."""
        self.models = models
        self.tapes = models.cassettes if models is not None else None
        """The run's model client, for `client.sampling` answers by a model."""
        self.env = env
        self.llm = llm
        self.state = state
        self.rows = rows
        self.progress = progress
        self._servers = anyio.Semaphore(server_concurrency)

    async def run(self) -> None:
        by_server: dict[tuple[str, str], list[PlannedTest]] = {}
        judged: list[PlannedTest] = []
        for t in self.plan.tests:
            if t.kind not in SERVER_KINDS:
                judged.append(t)
            elif t.server_key is not None:
                by_server.setdefault(t.server_key, []).append(t)
        async with anyio.create_task_group() as tg:
            for key, tests in by_server.items():
                tg.start_soon(self._run_server, key, tests)
            if judged:
                tg.start_soon(self._run_rows, judged)

    async def _run_rows(self, tests: list[PlannedTest]) -> None:
        """Eval and agent rows, through the row runner the pipeline gave us."""
        if self.rows is None:
            for t in tests:
                self._record(test_result(t, "error", duration_ms=0.0,
                                         message="no judge engine was set up for this run"))
            return
        await self.rows.run(tests, self._record, self._server_failed)

    async def _run_server(self, key: tuple[str, str], tests: list[PlannedTest]) -> None:
        from mcptest.run.client_config import client_config

        suite = tests[0].suite
        name = key[1]
        spec = suite.suite.servers[name]
        sampler = None
        if self.models is not None:
            from mcptest.run.sampler import ModelSampler

            sampler = ModelSampler(self.models, suite.suite.judge)
        client = client_config(suite.suite, name, suite.path.parent, sampler)
        async with self._servers:
            try:
                async with self._connection(key, spec, suite.path.parent, client) as conn:
                    self.state.secrets.update(conn.secrets())
                    self.state.servers[key] = ready_server(name, suite.display_path, conn)
                    async with anyio.create_task_group() as grading:
                        for t in tests:
                            await self._run_tool_test(t, conn, grading)
                    report = self.state.servers[key]
                    tail = conn.stderr_tail()
                    if tail and any(self.state.results[t.id].status != "passed" for t in tests
                                    if t.id in self.state.results):
                        self.state.servers[key] = report.model_copy(update={"stderr_tail": tail})
            except ServerNotReadyError as e:
                self._server_failed(key, spec, tests, str(e))

    @contextlib.asynccontextmanager
    async def _connection(self, key: tuple[str, str], spec: Any, base_dir: Any,
                          client: Any) -> AsyncIterator[ServerConnection]:
        """The server's connection: opened for this run, or the pool's warm one (`--watch`)."""
        from mcptest.run.session import ServerConnection

        def opener() -> contextlib.AbstractAsyncContextManager[ServerConnection]:
            return ServerConnection.open(key[1], spec, base_dir=base_dir, env=self.env,
                                         client=client, tracing=self.tracing)

        if self.pool is None:
            async with opener() as conn:
                yield conn
            return
        conn = await self.pool.connection(key, f"{base_dir}\n{spec.model_dump_json()}", opener)
        conn.retrace(self.tracing)
        yield conn

    def _record(self, result: TestResult) -> None:
        result = replay_verdict(self.tapes, result)
        self.state.results[result.id] = result
        if self.tracing is not None:
            self.tracing.finish_test(result)
        if self.progress is not None:
            self.progress(result)

    def _server_failed(
        self, key: tuple[str, str], spec: Any, tests: list[PlannedTest], cause: str
    ) -> None:
        self.state.not_ready = True
        field_name = "url" if isinstance(spec, RemoteServer) else "command"
        pos = tests[0].suite.pos("servers", key[1], field_name)
        self.state.server_errors.append(f"{pos}: servers.{key[1]}.{field_name}: {cause}")
        self.state.servers[key] = server_report(key[1], key[0], _transport_name(spec),
                                                status="failed", error=cause)
        environment = any(m in cause for m in ENVIRONMENT_MARKERS)
        for t in tests:
            if t.id not in self.state.results:
                self._record(test_result(
                    t, "error", gap="environment" if environment else "transport",
                    message=f"never became ready: {cause}", duration_ms=0.0,
                ))

    async def _run_tool_test(
        self, test: PlannedTest, conn: ServerConnection, grading: anyio.abc.TaskGroup
    ) -> None:
        from mcptest.run.client_config import capabilities_for
        from mcptest.run.client_test import own_client

        caps = capabilities_for(conn.client.config, own_client(test))
        with (self.tracing.test(test.id, test.name, test.suite_file) if self.tracing is not None
              else contextlib.nullcontext()):
            await self._run_tool_test_in(test, conn, grading, caps)

    async def _run_tool_test_in(self, test: PlannedTest, conn: ServerConnection,
                                grading: anyio.abc.TaskGroup, caps: Any) -> None:
        if caps == conn.client.config.capabilities:
            with playing(self.tapes, test):  # its grading task starts inside: it keeps the tape
                await self._call(test, conn, grading)
            return
        from mcptest.run.session import ServerConnection  # a test declaring its own capabilities

        suite = test.suite
        assert test.server is not None
        try:
            async with ServerConnection.open(
                test.server, suite.suite.servers[test.server], base_dir=suite.path.parent,
                env=self.env, client=conn.client.config.with_capabilities(caps),
                tracing=self.tracing,
            ) as own:
                self.state.secrets.update(own.secrets())
                with playing(self.tapes, test):
                    await self._call(test, own, grading)
        except ServerNotReadyError as e:
            self._record(test_result(test, "error", gap="transport", duration_ms=0.0, message=(
                f"its own connection (client.capabilities) never became ready: {e}")))

    async def _call(
        self, test: PlannedTest, conn: ServerConnection, grading: anyio.abc.TaskGroup
    ) -> None:
        spec = test.spec
        from mcptest.run.client_test import call, client_verdict, with_client
        from mcptest.run.surface_calls import produced_of  # MCP client: only with servers
        from mcptest.run.timeline import Exchanged

        assert isinstance(spec, ToolTest | ResourceTest | PromptTest | ListTest)
        start = time.perf_counter()
        mark, opened = conn.stderr_mark(), conn.timeline_mark()
        outcome, seen = await call(conn, test, spec.timeout or DEFAULT_TEST_TIMEOUT)
        call_ms = (time.perf_counter() - start) * 1000
        # The server's stderr while this request was in flight: its lines, no other test's.
        stderr = conn.stderr_since(mark)
        exchange = Exchanged(opened, *conn.timeline.since(opened))
        if outcome.transport_error is not None or outcome.timed_out:
            cause = outcome.transport_error or "timed out"
            if outcome.timed_out and outcome.task is None:
                what = "tool call" if isinstance(spec, ToolTest) else f"{test.kind} request"
                cause = f"{what} timed out after {spec.timeout or DEFAULT_TEST_TIMEOUT:g}s"
            gap = "protocol" if cause.startswith("protocol") else "transport"
            status, message = client_verdict(test, outcome, seen, "error", cause)
            self._record(test_result(
                test, status, gap=gap, message=message, duration_ms=call_ms,
                stderr=stderr, response=with_client({}, test, outcome, seen) or None,
                **exchange.row(status),
            ))
            return
        produced = with_client(_produced(outcome) if isinstance(spec, ToolTest)
                               else produced_of(spec, outcome), test, outcome, seen)
        grading.start_soon(self._grade, test, produced, call_ms, conn, (outcome, seen), stderr,
                           exchange)

    @staticmethod
    def _unknown_tool(test: PlannedTest, produced: dict[str, Any],
                      conn: ServerConnection) -> str | None:
        """A call to a tool the server does not list, answered with an error (a test that
        expects that error passes and never gets here): the suite's mistake, said once."""
        spec = test.spec
        if not isinstance(spec, ToolTest) or not is_tool_error(produced):
            return None
        unknown = unknown_name("tool", spec.tool, test.server or "",
                               [str(t.get("name")) for t in conn.tools])
        return None if unknown is None else (
            f"{unknown} (the call answered: \"{tool_error_line(produced)}\"); "
            "`mcptest validate --connect` finds this before a run")

    async def _grade(
        self, test: PlannedTest, produced: dict[str, Any], call_ms: float, conn: ServerConnection,
        client: tuple[CallOutcome, Exchange], stderr: str, exchange: Exchanged,
    ) -> None:
        from mcptest.run.client_test import ACCEPTED_TAMPERED, client_verdict, tampered

        start = time.perf_counter()
        llm = self.llm
        spec = test.spec
        if llm is not None and isinstance(spec, ToolTest) and any(
                p.is_llm for p in test.assertions):
            tool = next((x for x in conn.tools if x.get("name") == spec.tool), None)
            llm = StructuralTier(llm, produced, tool)  # tier 2 between matchers and judges
        # `duration_ms`: the request's own time, a target like any other (docs/suites.md)
        graded = await grade_test(test, {**produced, "duration_ms": round(call_ms, 3)}, llm)
        verdict = test_verdict(test, graded)
        assertions, status, message = verdict.assertions, verdict.status, verdict.message
        if not assertions and is_tool_error(produced) and not tampered(test):
            # With nothing to check, an error answer is the one thing we can call a failure.
            status, message = "failed", ("the tool answered with an error and the test has no "
                                         f"expect: \"{tool_error_line(produced)}\"")
        if status != "passed" and (unknown := self._unknown_tool(test, produced, conn)):
            self._record(test_result(  # once for the test, not once per assertion
                test, "error", gap="suite", message=unknown, duration_ms=call_ms,
                response=produced, **exchange.row("error")))
            return
        status, message = client_verdict(test, *client, status, message)
        # The tools/call shape rules (a `content` list, `isError`) say nothing of resources,
        # prompts and listings: their answers are judged by their assertions alone.
        gap = gap_category(status, assertions, produced if isinstance(spec, ToolTest) else None,
                       protocol_error=(message or "").startswith(ACCEPTED_TAMPERED))
        self._record(test_result(
            test, status, assertions=assertions, gap=gap, message=message,
            duration_ms=call_ms + since_ms(start), response=produced, weighted=verdict.weighted,
            stderr=stderr if status not in ("passed", "deferred") else None,
            **exchange.row(status),
        ))
