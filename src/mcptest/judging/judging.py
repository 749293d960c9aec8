"""The judge side of a run: engine set-up, the header line, grading for the runner, totals.

Created only when the plan holds a judged assertion, an eval or an agent, so a deterministic run
never touches litellm. The projection reads litellm's price table as data (no import), so the
header and the unknown-price check cost milliseconds while the real import runs in the
background.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from mcptest.calibrate.gate import CalibrationGating
from mcptest.errors import SuiteError, SuiteErrors
from mcptest.judging.model_checks import model_errors
from mcptest.judging.plan_projection import has_agent_rows, needs_litellm, plan_calls, project_calls
from mcptest.llm.engine import JudgeEngine
from mcptest.report.redact import redact_value
from mcptest.suite.models import JudgeDefaults

if TYPE_CHECKING:
    from mcptest.judging.shift_recheck import ShiftRecheck
    from mcptest.llm.budget import BudgetLedger
    from mcptest.llm.cassette import Cassettes
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.plan import Plan, PlannedAssertion, PlannedTest
    from mcptest.report.build import JudgeTotals
    from mcptest.report.models import AssertionResult, TestResult


class Judging:
    """Grades judged assertions for the runner through one shared `JudgeEngine`."""

    def __init__(self, plan: Plan, options: JudgeOptions,
                 cassettes: Cassettes | None = None, ledger: BudgetLedger | None = None) -> None:
        self.options = options
        self._replay = cassettes is not None and cassettes.mode == "replay"
        self.engine = JudgeEngine(options, cassettes, ledger)
        self.calibration = CalibrationGating(require=options.require_calibration,
                                             evidence=options.evidence)
        if errors := model_errors(plan, options.env):
            raise SuiteErrors(errors)
        calls = plan_calls(plan)
        self.projection, unpriced = project_calls(calls, options.env)
        self._agent_rows = has_agent_rows(calls)
        self._litellm = needs_litellm(calls, options.env)
        if options.max_cost is not None and unpriced:
            raise SuiteErrors([
                SuiteError(
                    f"model {model!r} has no known price, so --max-cost cannot bound it; "
                    "give it one under the suite's judge.pricing ({input, output} USD per "
                    "million tokens)", pos, "matcher")
                for model, pos in unpriced.items()
            ])

    @functools.cached_property
    def shift(self) -> ShiftRecheck:
        """The check, during and after the run, that each calibrated cascade's guarantee
        applies to it (made on first use: a run without judged assertions never needs it)."""
        from mcptest.judging.shift_recheck import ShiftRecheck

        return ShiftRecheck(self.calibration, self.engine, self.options.on_shift)

    async def start(self) -> None:
        """Start the litellm import in the background, unless nothing will need it (every call
        deferred or on the fast OpenAI-compatible route, or only custom judges): the engine
        still imports lazily if it must."""
        if (self.projection.calls or self._agent_rows) and self._litellm and not self._replay:
            self.engine.start()  # a replay sends nothing: nothing to import for

    async def close(self) -> None:
        """Close the model client's connections at the end of the run."""
        await self.engine.client.aclose()

    def header(self) -> str:
        p = self.projection
        bound = "unknown" if p.cost_bound_usd is None else f"${p.cost_bound_usd:.4f}"
        cap = f" (cap ${self.options.max_cost:.4f})" if self.options.max_cost is not None else ""
        line = f"judges: up to {p.calls} call(s), cost bound {bound}{cap}"
        if p.deferred:
            line += f"; {p.deferred} call(s) will be deferred: no judge key or gateway"
        return line

    async def grade(
        self, test: PlannedTest, planned: PlannedAssertion, candidate: Any, response: Any = None,
    ) -> AssertionResult:
        from mcptest.calibrate.cascade_gate import thresholds
        from mcptest.grade.judged_call import JudgedCall
        from mcptest.judging.graders import grader_for
        if self.options.redact_candidates:  # docs/judges.md: what the judge provider sees
            candidate = redact_value(candidate, self.options.secrets)
            response = redact_value(response, self.options.secrets)
        call = JudgedCall(test, planned, candidate, self.engine, response,
                          lambda: self.shift.watched(
                              test, planned, thresholds(self.calibration, test, planned)))
        result = self.calibration.apply(
            test, planned, await grader_for(planned.assertion.matcher)(call))
        self.shift.note(test, planned, candidate, result)
        return result

    def budget_warnings(self) -> list[str]:
        """What was reported past the cap's room (a custom judge past its declaration, a
        provider past its token limit): the reporter's error, kept out of the spend."""
        beyond = self.engine.stats().beyond_usd
        if beyond <= 0:
            return []
        return [f"budget: calls reported ${beyond:.6f} more than the cap had room for; that "
                "is the reporting judge's or provider's error, not counted as spent, and it "
                "stopped the run's spending (docs/judges.md, \"Budget\")"]

    def totals(self, tests: list[TestResult]) -> JudgeTotals:
        from mcptest.judging.run_agreement import agreements
        from mcptest.report.build import JudgeTotals

        stats = self.engine.stats()
        return JudgeTotals(
            calls=stats.calls_sent,
            cache_hits=stats.cache_hits,
            cost_usd=stats.spent_usd,
            max_cost_usd=stats.cap_usd,
            budget_stopped=stats.budget_stopped,
            projected_calls=self.projection.calls,
            cost_bound_usd=self.projection.cost_bound_usd,
            **agreements(tests),
        )


def pool_limits(plan: Plan, flag: int | None) -> tuple[int, int | None]:
    """One pool serves the run: `--concurrency` wins, else the strictest `judge.concurrency`
    any suite of the run sets, else 8; the per-model limit likewise (strictest set, else none)."""
    blocks = [s.suite.judge for s in plan.suites if s.suite.judge is not None]
    shared = [b.concurrency for b in blocks if "concurrency" in b.model_fields_set]
    per_model = [b.per_model_concurrency for b in blocks if b.per_model_concurrency is not None]
    return (flag or min(shared, default=JudgeDefaults().concurrency),
            min(per_model, default=None))


def judge_options(plan: Plan, judge: JudgeOptions, secrets: tuple[str, ...]) -> JudgeOptions:
    """The run's judge settings with what the plan decides: the pool's limits (`--concurrency`
    when given, else the suites' `judge:` blocks: `pool_limits`) and the run's known secrets."""
    flag = judge.concurrency if "concurrency" in judge.model_fields_set else None
    concurrency, per_model = pool_limits(plan, flag)
    return judge.model_copy(update={"concurrency": concurrency,
                                    "per_model_concurrency": per_model, "secrets": secrets})
