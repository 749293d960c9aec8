"""The judge side of a run: engine set-up, the projection for the header, grading for the runner.

Created only when the plan holds an LLM assertion, so a deterministic run never touches litellm.
The projection reads litellm's price table as data (no import), so the header and the
unknown-price check cost milliseconds while the real import runs in the background.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcptest.errors import SourcePos, SuiteError, SuiteErrors
from mcptest.grade.agreement import run_agreement
from mcptest.grade.llm_matchers import LlmContext, grade_llm
from mcptest.llm.budget import lookup_price
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.llm.known_secrets import known_secrets
from mcptest.llm.models import Unroutable, route
from mcptest.llm.price_table import price_table
from mcptest.plan import Plan, PlannedAssertion, PlannedTest
from mcptest.report.build import JudgeTotals
from mcptest.report.models import AssertionResult, TestResult
from mcptest.report.redact import redact_value
from mcptest.suite.models import (
    AgentTest,
    CustomJudgeMatcher,
    EvalRubricMatcher,
    EvalSpec,
    JudgeDefaults,
    LlmJudgeMatcher,
    LlmJuryMatcher,
)

PROJECTED_PROMPT_TOKENS = 2000
"""Prompt size assumed for the header's cost bound; the cap itself is enforced per call."""


@dataclass(frozen=True)
class Projection:
    calls: int
    deferred: int
    cost_bound_usd: float | None
    unpriced: dict[str, SourcePos]
    """Model → where it is first used, for models nobody has a price for."""


def _calls(p: PlannedAssertion) -> list[tuple[str | None, str | None]]:
    """(model, base_url) of every judge request the assertion may send."""
    m = p.assertion.matcher
    if isinstance(m, LlmJudgeMatcher):
        return [(m.llm_judge.model, m.llm_judge.base_url)]
    if isinstance(m, LlmJuryMatcher):
        jury = m.llm_jury
        return [(j.model, j.base_url) for j in jury.jurors] * jury.repetitions
    return []


def _test_calls(t: PlannedTest) -> list[tuple[tuple[str | None, str | None], Any]]:
    """Every judge request a test may send, each with where it is written."""
    from mcptest.evals.projection import project_agent_rubrics, project_eval

    out: list[tuple[tuple[str | None, str | None], Any]] = [
        (c, p.location) for p in t.assertions for c in _calls(p)]
    rubrics = t.suite.suite.rubrics
    if isinstance(t.spec, EvalSpec):
        e = project_eval(t.spec, rubrics, model=t.model)
        out += [((s.model, s.base_url), t.location) for s in e.seats] * e.questions
    elif isinstance(t.spec, AgentTest):
        for e in project_agent_rubrics(t.spec, rubrics):
            out += [((s.model, s.base_url), t.location) for s in e.seats] * e.questions
    return out


def _agent_turns(t: PlannedTest) -> tuple[str | None, int] | None:
    """(agent model, max turns) of an agent row or a live eval row; None otherwise."""
    if isinstance(t.spec, AgentTest):
        return t.model, t.spec.max_turns
    if isinstance(t.spec, EvalSpec) and t.spec.response is None:
        return t.model or t.spec.model, t.spec.max_turns
    return None


def project(plan: Plan, env: Mapping[str, str]) -> Projection:
    table = price_table()
    calls = deferred = 0
    bound = 0.0
    unpriced: dict[str, SourcePos] = {}
    for t in plan.tests:
        defaults = t.suite.suite.judge
        settings = defaults or JudgeDefaults()
        for (model, base_url), loc in _test_calls(t):
            r = route(model, base_url, defaults, env)
            if isinstance(r, Unroutable):
                deferred += 1
                continue
            calls += 1
            price = lookup_price(r.model, settings.pricing, table)
            if price is None:
                unpriced.setdefault(r.model, SourcePos(loc.file, loc.line, loc.column))
            else:
                bound += price.cost(PROJECTED_PROMPT_TOKENS, settings.max_tokens)
        agent = _agent_turns(t)
        if agent is not None:
            r = route(agent[0], None, defaults, env)
            if not isinstance(r, Unroutable):
                price = lookup_price(r.model, settings.pricing, table)
                if price is None:
                    loc = t.location
                    unpriced.setdefault(r.model, SourcePos(loc.file, loc.line, loc.column))
                else:  # each turn re-sends the growing conversation: a rough upper estimate
                    bound += agent[1] * price.cost(PROJECTED_PROMPT_TOKENS * 2,
                                                   settings.max_tokens)
    return Projection(calls=calls, deferred=deferred,
                      cost_bound_usd=None if unpriced else bound, unpriced=unpriced)


class Judging:
    """Grades LLM assertions for the runner through one shared `JudgeEngine`."""

    def __init__(self, plan: Plan, options: JudgeOptions) -> None:
        self.options = options
        self.engine = JudgeEngine(options)
        self.projection = project(plan, options.env)
        self._agent_rows = any(_agent_turns(t) is not None for t in plan.tests)
        if options.max_cost is not None and self.projection.unpriced:
            raise SuiteErrors([
                SuiteError(
                    f"model {model!r} has no known price, so --max-cost cannot bound it; "
                    "give it one under the suite's judge.pricing ({input, output} USD per "
                    "million tokens)", pos, "matcher")
                for model, pos in self.projection.unpriced.items()
            ])

    async def start(self) -> None:
        """Start the litellm import in the background, unless nothing will need it (every call
        deferred, or only custom judges): the engine still imports lazily if it must."""
        if self.projection.calls or self._agent_rows:
            self.engine.start()

    async def aclose(self) -> None:
        """Nothing to release: the engine's HTTP clients close with each call."""

    def header(self) -> str:
        p = self.projection
        bound = "unknown" if p.cost_bound_usd is None else f"${p.cost_bound_usd:.4f}"
        cap = f" (cap ${self.options.max_cost:.4f})" if self.options.max_cost is not None else ""
        line = f"judges: up to {p.calls} call(s), cost bound {bound}{cap}"
        if p.deferred:
            line += f"; {p.deferred} call(s) will be deferred: no judge key or gateway"
        return line

    async def grade(
        self, test: PlannedTest, planned: PlannedAssertion, candidate: Any
    ) -> AssertionResult:
        m = planned.assertion.matcher
        if self.options.redact_candidates:  # docs/judges.md: what the judge provider sees
            candidate = redact_value(candidate, self.options.secrets)
        if isinstance(m, EvalRubricMatcher):
            from mcptest.evals.assertions import grade_eval_rubric

            return await grade_eval_rubric(test, planned, candidate, self.engine)
        if isinstance(m, CustomJudgeMatcher):
            from mcptest.evals.assertions import grade_custom

            return await grade_custom(test, planned, candidate, self.engine)
        generator = test.model if test.kind == "agent" else None
        ctx = LlmContext(test_id=test.id, test_name=test.name, location=planned.location,
                         defaults=test.suite.suite.judge, generator_model=generator)
        return await grade_llm(planned.index, planned.assertion, candidate, ctx, self.engine)

    def totals(self, tests: list[TestResult]) -> JudgeTotals:
        stats = self.engine.stats()
        return JudgeTotals(
            calls=stats.calls_sent,
            cache_hits=stats.cache_hits,
            cost_usd=stats.spent_usd,
            max_cost_usd=stats.cap_usd,
            budget_stopped=stats.budget_stopped,
            projected_calls=self.projection.calls,
            cost_bound_usd=self.projection.cost_bound_usd,
            run_agreement=_run_agreement(tests),
        )


def _run_agreement(tests: list[TestResult]) -> float | None:
    """Alpha across every jury of the run: one unit per assertion, one row per juror seat."""
    per_assertion: list[list[list[float | None]]] = []
    for t in tests:
        for a in t.assertions:
            if a.judge is None or a.judge.kind != "llm-jury":
                continue
            seats: dict[str, list[float]] = {}
            for v in a.judge.votes:
                if v.score is not None:
                    seats.setdefault(v.replacement_for or v.model, []).append(v.score)
            if seats:
                per_assertion.append([[statistics.median(s)] for s in seats.values()])
    return run_agreement(per_assertion) if per_assertion else None


def _pool_limits(plan: Plan, flag: int | None) -> tuple[int, int | None]:
    """One pool serves the run: `--concurrency` wins, else the strictest `judge.concurrency`
    any suite of the run sets, else 8; the per-model limit likewise (strictest set, else none)."""
    blocks = [s.suite.judge for s in plan.suites if s.suite.judge is not None]
    shared = [b.concurrency for b in blocks if "concurrency" in b.model_fields_set]
    per_model = [b.per_model_concurrency for b in blocks if b.per_model_concurrency is not None]
    return (flag or min(shared, default=JudgeDefaults().concurrency),
            min(per_model, default=None))


def make_judging(plan: Plan, args: argparse.Namespace, env: dict[str, str]) -> Judging:
    concurrency, per_model = _pool_limits(plan, args.concurrency)
    options = JudgeOptions(
        concurrency=concurrency,
        per_model_concurrency=per_model,
        max_cost=args.max_cost,
        cache_dir=None if args.no_cache else args.cache_dir,
        require_judge=args.require_judge,
        env=env,
        secrets=known_secrets((s.suite for s in plan.suites), env),
        redact_candidates=getattr(args, "redact_candidates", False),
    )
    return Judging(plan, options)
