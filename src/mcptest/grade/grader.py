"""Grade one test's produced data against its assertions, in cascade order (docs/cascade.md).

Tier 1, deterministic matchers, runs first. When one fails, the LLM assertions of the test are not
sent (skipped, cost nothing); in a weighted test only once its threshold is out of reach
(grade/weighted.py). `jury.*` assertions read the analytics of the test's one `llm-jury`
assertion, so they run last.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from mcptest.grade.absent import missing_message, settle_error_answer
from mcptest.grade.deterministic import evaluate, shorten_json
from mcptest.grade.measured import judge_measures, reads_judge
from mcptest.grade.rows import assertion_result
from mcptest.grade.targets import Missing, resolve
from mcptest.grade.weighted import out_of_reach, weighted_scoring, weighted_verdict
from mcptest.suite.models import LlmJuryMatcher

if TYPE_CHECKING:
    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.report.models import AssertionResult, Status, WeightedScore

SKIP_AFTER_SHAPE = "not sent: an earlier deterministic check failed"


class LlmGrading(Protocol):
    """Grades one LLM assertion (implemented over the judge engine)."""

    async def grade(
        self, test: PlannedTest, planned: PlannedAssertion, candidate: Any,
        response: Any = None,
    ) -> AssertionResult:
        """`response`: everything the test produced (custom judges get it, docs/cascade.md)."""
        ...


def grade_deterministic(planned: PlannedAssertion, produced: dict[str, Any]) -> AssertionResult:
    start = time.perf_counter()
    found = resolve(produced, planned.assertion.target)
    if isinstance(found, Missing):  # `not:` too: a typo in the path must not pass
        return assertion_result(planned, "failed", message=missing_message(found, produced),
                                start=start)
    verdict = evaluate(planned.assertion.matcher, found.value)
    return assertion_result(
        planned, "passed" if verdict.passed else "failed", message=verdict.message,
        expected=verdict.expected, actual=None if verdict.passed else _shown(found.value),
        start=start)


def _shown(value: Any) -> Any:
    """Keep small actual values as they are; shorten big ones for the report."""
    text = shorten_json(value, limit=2000)
    return value if not text.endswith("JSON)") and not text.endswith("chars)") else text


async def grade_test(
    test: PlannedTest, produced: dict[str, Any], llm: LlmGrading | None
) -> list[AssertionResult]:
    """All assertion results of one test, in the order they were written."""
    results: dict[int, AssertionResult] = {}
    deterministic = [p for p in test.assertions
                     if not p.is_llm and not p.reads_jury and not reads_judge(p)]
    judged = [p for p in test.assertions if p.is_llm]
    jury_readers = [p for p in test.assertions if p.reads_jury and not p.is_llm]
    judge_readers = [p for p in test.assertions if reads_judge(p) and not p.is_llm]

    for p in deterministic:
        results[p.index] = grade_deterministic(p, produced)
    scoring = weighted_scoring(test)
    if scoring is None:  # an error answer is said once, not once per key it lacks
        settle_error_answer(results, produced, {
            p.index for p in deterministic
            if isinstance(resolve(produced, p.assertion.target), Missing)})
    if scoring is not None:  # weighted: stop only when the threshold is out of reach
        stop = out_of_reach(test, scoring, list(results.values()))
    else:
        stop = SKIP_AFTER_SHAPE if any(r.status != "passed" for r in results.values()) else None

    if stop is not None:
        for p in judged + jury_readers + judge_readers:
            results[p.index] = assertion_result(p, "skipped", message=stop, duration_ms=0.0)
        return [results[i] for i in sorted(results)]

    if judged:
        if llm is None:
            for p in judged:
                results[p.index] = assertion_result(
                    p, "not_yet_available", duration_ms=0.0,
                    message="LLM judging is not available in this build")
        else:
            async def one(p: PlannedAssertion) -> None:
                found = resolve(produced, p.assertion.target)
                if isinstance(found, Missing):
                    results[p.index] = assertion_result(
                        p, "failed", message=missing_message(found, produced), duration_ms=0.0)
                    return
                results[p.index] = await llm.grade(test, p, found.value, produced)

            async with anyio.create_task_group() as tg:
                for p in judged:
                    tg.start_soon(one, p)

    for p in jury_readers:
        results[p.index] = _grade_jury_reader(p, test, results, produced)
    if judge_readers:  # after the judges: what they cost is known now
        view = {**produced, **judge_measures([results[p.index] for p in judged])}
        for p in judge_readers:
            results[p.index] = grade_deterministic(p, view)
    return [results[i] for i in sorted(results)]


_JURY_FATES: dict[str, tuple[Status, str]] = {
    "failed": ("failed", "failed"),  # e.g. a deferral that --require-judge made a failure
    "error": ("error", "ended in an error"),
    "deferred": ("deferred", "was deferred"),
    "skipped": ("skipped", "was skipped"),
    "not_yet_available": ("not_yet_available", "is not available in this build"),
    # a jury that passed always has analytics: without them there is nothing sound to read
    "passed": ("error", "passed without recording its analytics"),
}
"""A jury reader's status and the words for its jury's fate, when that jury has no
analytics: the readers follow the jury, so one cause reads the same for a judge and a jury."""


def _grade_jury_reader(
    p: PlannedAssertion, test: PlannedTest, results: dict[int, AssertionResult],
    produced: dict[str, Any],
) -> AssertionResult:
    jury_results = [
        results[q.index] for q in test.assertions
        if isinstance(q.assertion.matcher, LlmJuryMatcher) and q.index in results
    ]
    if not jury_results:
        return assertion_result(p, "failed", duration_ms=0.0,
                                message="`jury` is absent: this test has no llm-jury result")
    jr = jury_results[0]
    analytics = jr.judge.jury if jr.judge else None
    if analytics is None:  # nothing to read: the readers share the jury's fate
        status, fate = _JURY_FATES.get(jr.status, ("error", f"ended {jr.status}"))
        return assertion_result(p, status, duration_ms=0.0,
                                message=f"no jury analytics to read: the llm-jury assertion "
                                        f"{fate}")
    view = {**produced, "jury": analytics.model_dump(mode="json")}
    if p.assertion.target.startswith("jury.agreement") and analytics.agreement is None:
        return assertion_result(
            p, "skipped", duration_ms=0.0, outside_verdict=True,
            message="jury.agreement is undefined with fewer than two decisive jurors: "
                    "skipped, the test's verdict comes from its other assertions")
    return grade_deterministic(p, view)


@dataclass(frozen=True)
class TestVerdict:
    status: Status
    message: str | None
    assertions: list[AssertionResult]
    weighted: WeightedScore | None = None


def test_verdict(test: PlannedTest, assertions: list[AssertionResult]) -> TestVerdict:
    """The gate (`test_status`), or for `scoring: {mode: weighted}` the weighted score against
    its threshold, with each assertion's weight and contribution (grade/weighted.py)."""
    gate = test_status(assertions)
    scoring = weighted_scoring(test)
    if scoring is None:
        return TestVerdict(gate, None, assertions)
    w = weighted_verdict(test, scoring, assertions, gate)
    return TestVerdict(w.status, w.message, w.assertions, w.score)


def test_status(assertions: list[AssertionResult]) -> Status:
    """A test's status from its assertions: the worst one wins. A skip outside the verdict
    (an undefined `jury.agreement`, docs/jury.md) leaves it to the others."""
    statuses = {a.status for a in assertions if not a.outside_verdict}
    for s in ("error", "failed", "not_yet_available", "skipped", "deferred"):
        if s in statuses:
            return s
    return "passed"
