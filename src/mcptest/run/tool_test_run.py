"""One tool test on a ready connection: the request (under the row's tape and trace), then its
grading in the background, so the next call does not wait for a judge.

The runner (run/runner.py) hands each server's tests here in order; a test that declares its own
client capabilities gets a connection of its own. Resource, prompt and list requests take the
same path (run/surface_calls.py turns their answers into targets).
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcptest.errors import ServerNotReadyError
from mcptest.run.tapes import playing
from mcptest.run.warm import TOOL_GRADING, warm_now

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import anyio

    from mcptest.grade.grader import LlmGrading
    from mcptest.llm.cassette import Cassettes
    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult
    from mcptest.run.client_side import Exchange
    from mcptest.run.requests import CallOutcome
    from mcptest.run.session import ServerConnection
    from mcptest.run.timeline import Exchanged
    from mcptest.telemetry.hooks import Tracing

DEFAULT_TEST_TIMEOUT = 30.0


def _produced(outcome: CallOutcome) -> dict[str, Any]:
    if outcome.error is not None:
        return {"error": outcome.error}
    if outcome.result is None and outcome.task is not None:
        return {}  # a cancelled task: no answer, only `task`
    return {"result": outcome.result}


@dataclass
class ToolTestRun:
    """What every tool test of a run shares: where results go, the judges, the tapes."""

    env: Mapping[str, str]
    llm: LlmGrading | None
    record: Callable[[TestResult], None]
    secrets: set[str]
    """The run's secrets, added to by each connection a test opens of its own."""
    tapes: Cassettes | None = None
    tracing: Tracing | None = None
    _grading_ready: bool = field(default=False, init=False)

    async def run(
        self, test: PlannedTest, conn: ServerConnection, grading: anyio.abc.TaskGroup
    ) -> None:
        """Call the test's request, then grade its answer as a task of `grading`."""
        from mcptest.run.client_config import capabilities_for
        from mcptest.run.client_test import own_client

        caps = capabilities_for(conn.client.config, own_client(test))
        with (self.tracing.test(test.id, test.name, test.suite_file) if self.tracing is not None
              else contextlib.nullcontext()):
            await self._in_own_or_shared(test, conn, grading, caps)

    async def _in_own_or_shared(self, test: PlannedTest, conn: ServerConnection,
                                grading: anyio.abc.TaskGroup, caps: Any) -> None:
        from mcptest.grade.rows import test_result
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
                self.secrets.update(own.secrets())
                with playing(self.tapes, test):
                    await self._call(test, own, grading)
        except ServerNotReadyError as e:
            self.record(test_result(test, "error", gap="transport", duration_ms=0.0, message=(
                f"its own connection (client.capabilities) never became ready: {e}")))

    async def _call(
        self, test: PlannedTest, conn: ServerConnection, grading: anyio.abc.TaskGroup
    ) -> None:
        from mcptest.grade.rows import test_result
        from mcptest.suite.models import ListTest, PromptTest, ResourceTest, ToolTest
        spec = test.spec
        from mcptest.run.client_test import call, client_verdict, with_client
        from mcptest.run.surface_calls import produced_of  # MCP client: only with servers
        from mcptest.run.timeline import Exchanged

        assert isinstance(spec, ToolTest | ResourceTest | PromptTest | ListTest)
        if not self._grading_ready:  # before the first request is timed (run/warm.py)
            warm_now(TOOL_GRADING)
            self._grading_ready = True
        type(spec).model_rebuild()  # its definition hash dumps it: built now, not while grading
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
            self.record(test_result(
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
        from mcptest.grade.absent import tool_error_line, unknown_name
        from mcptest.grade.diagnose import is_tool_error
        from mcptest.suite.models import ToolTest
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
        from mcptest.grade.absent import tool_error_line
        from mcptest.grade.diagnose import gap_category, is_tool_error
        from mcptest.grade.grader import grade_test, test_verdict
        from mcptest.grade.rows import since_ms, test_result
        from mcptest.grade.structural import StructuralTier
        from mcptest.run.client_test import ACCEPTED_TAMPERED, client_verdict, tampered
        from mcptest.suite.models import ToolTest
        # (imported and built before the first request is timed: `TOOL_GRADING`)

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
            self.record(test_result(  # once for the test, not once per assertion
                test, "error", gap="suite", message=unknown, duration_ms=call_ms,
                response=produced, **exchange.row("error")))
            return
        status, message = client_verdict(test, *client, status, message)
        # The tools/call shape rules (a `content` list, `isError`) say nothing of resources,
        # prompts and listings: their answers are judged by their assertions alone.
        gap = gap_category(status, assertions, produced if isinstance(spec, ToolTest) else None,
                       protocol_error=(message or "").startswith(ACCEPTED_TAMPERED))
        self.record(test_result(
            test, status, assertions=assertions, gap=gap, message=message,
            duration_ms=call_ms + since_ms(start), response=produced, weighted=verdict.weighted,
            stderr=stderr if status not in ("passed", "deferred") else None,
            **exchange.row(status),
        ))
