"""Drive a plan: one connection per server, its tests in order, grading overlapped with calls.

Servers run concurrently (bounded). Within a server, tool calls go one after another in the order
written, because MCP servers are often stateful (create, then read); the grading of each answer,
judge calls included, runs in the background so the next call does not wait for a judge.

One tool test (its request, then its grading) is run/tool_test_run.py's job.
Results land in a `RunState` as they complete, so an interrupted run can still report what it had.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import anyio

from mcptest.errors import ServerNotReadyError
from mcptest.plan import SERVER_KINDS
from mcptest.run.tapes import replay_verdict

if TYPE_CHECKING:
    from mcptest.grade.grader import LlmGrading
    from mcptest.llm.model_client import ModelClient
    from mcptest.plan import Plan, PlannedTest
    from mcptest.report.models import ServerReport, TestResult
    from mcptest.run.server_pool import ServerPool
    from mcptest.run.session import ServerConnection
    from mcptest.run.stdio_spawn import EarlyServer
    from mcptest.run.tool_test_run import ToolTestRun
    from mcptest.telemetry.hooks import Tracing

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
    return str(getattr(spec, "transport", "stdio"))  # a RemoteServer's, else stdio


Record: TypeAlias = "Callable[[TestResult], None]"
ServerFailed = Callable[[tuple[str, str], Any, list["PlannedTest"], str], None]


class RowRunner(Protocol):
    """Runs the eval and agent rows of a plan (the pipeline hands one in: see
    `mcptest.agents.driver`); tool tests never need it."""

    async def run(self, tests: list[PlannedTest], record: Record,
                  server_failed: ServerFailed) -> None: ...


def ready_server(name: str, suite_file: str, conn: ServerConnection) -> ServerReport:
    """The report row of a server connection that became ready."""
    from mcptest.grade.rows import server_report
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
        self._concurrency = server_concurrency

    @functools.cached_property
    def _tool_tests(self) -> ToolTestRun:
        """How one tool test runs (made at the first: a run of evals only never imports it)."""
        from mcptest.run.tool_test_run import ToolTestRun

        return ToolTestRun(self.env, self.llm, self._record, self.state.secrets, self.tapes,
                           self.tracing)

    async def run(self) -> None:
        by_server: dict[tuple[str, str], list[PlannedTest]] = {}
        judged: list[PlannedTest] = []
        for t in self.plan.tests:
            if t.kind not in SERVER_KINDS:
                judged.append(t)
            elif t.server_key is not None:
                by_server.setdefault(t.server_key, []).append(t)
        early: dict[tuple[str, str], EarlyServer] = {}
        try:
            early = await self._early(by_server)
            async with anyio.create_task_group() as tg:
                for key, tests in by_server.items():
                    tg.start_soon(self._run_server, key, tests, early.get(key))
                if judged:
                    tg.start_soon(self._run_rows, judged)
        finally:  # a process the run stopped before its connection took it
            for server in early.values():
                await server.discard()

    async def _early(self, by_server: dict[tuple[str, str], list[PlannedTest]]
                     ) -> dict[tuple[str, str], EarlyServer]:
        """The first stdio servers' processes (as many as connect at once), started before the
        MCP SDK's client is imported (~0.45 s of CPU), so that they start up meanwhile
        (`run/stdio_spawn.py`). Not with `--watch`, whose pool keeps servers of its own."""
        if self.pool is not None or not by_server:  # a judged run without servers: no import
            return {}
        from mcptest.run.stdio_spawn import early_servers
        from mcptest.suite.models import StdioServer

        first = []
        for key, tests in list(by_server.items())[:self._concurrency]:
            spec = tests[0].suite.suite.servers[key[1]]
            if isinstance(spec, StdioServer):
                first.append((key, spec, tests[0].suite.path.parent))
        return await early_servers(first, self.env)

    async def _run_rows(self, tests: list[PlannedTest]) -> None:
        """Eval and agent rows, through the row runner the pipeline gave us."""
        if self.rows is None:
            from mcptest.grade.rows import test_result

            for t in tests:
                self._record(test_result(t, "error", duration_ms=0.0,
                                         message="no judge engine was set up for this run"))
            return
        await self.rows.run(tests, self._record, self._server_failed)

    async def _run_server(self, key: tuple[str, str], tests: list[PlannedTest],
                          early: EarlyServer | None = None) -> None:
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
                async with self._connection(key, spec, suite.path.parent, client,
                                            early) as conn:
                    self.state.secrets.update(conn.secrets())
                    self.state.servers[key] = ready_server(name, suite.display_path, conn)
                    async with anyio.create_task_group() as grading:
                        for t in tests:
                            await self._tool_tests.run(t, conn, grading)
                    report = self.state.servers[key]
                    tail = conn.stderr_tail()
                    if tail and any(self.state.results[t.id].status != "passed" for t in tests
                                    if t.id in self.state.results):
                        self.state.servers[key] = report.model_copy(update={"stderr_tail": tail})
            except ServerNotReadyError as e:
                self._server_failed(key, spec, tests, str(e))

    @contextlib.asynccontextmanager
    async def _connection(self, key: tuple[str, str], spec: Any, base_dir: Any,
                          client: Any, early: EarlyServer | None = None
                          ) -> AsyncIterator[ServerConnection]:
        """The server's connection: opened for this run (over its process started `early`),
        or the pool's warm one (`--watch`)."""
        from mcptest.run.session import ServerConnection

        def opener() -> contextlib.AbstractAsyncContextManager[ServerConnection]:
            return ServerConnection.open(key[1], spec, base_dir=base_dir, env=self.env,
                                         client=client, tracing=self.tracing, early=early)

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
        from mcptest.grade.rows import server_report, test_result
        self.state.not_ready = True
        field_name = "url" if hasattr(spec, "url") else "command"  # RemoteServer, StdioServer
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
