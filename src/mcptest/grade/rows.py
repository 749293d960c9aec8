"""The one place report rows are built: `AssertionResult`, `TestResult`, `ServerReport`.

Tool tests, evals, agent tests, the structural tier and every judged grader build their rows
here, so rounding, cost sums, truncation of huge answers and the fields a reporter relies on are
the same whatever produced the row (docs/reports.md describes the fields).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import BaseModel

from mcptest.grade.definition import assertion_hash, test_hash
from mcptest.report.models import (
    AssertionResult,
    JudgeDetail,
    ServerReport,
    Status,
    TestResult,
    WeightedScore,
)
from mcptest.suite.models import (
    LIST_METHODS,
    ListTest,
    PromptTest,
    ResourceTest,
    ToolTest,
    matcher_kind,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.report.timeline_models import WireStep

_Row = TypeVar("_Row", bound=BaseModel)

MAX_RESPONSE_CHARS = 20_000
"""An answer (or transcript) longer than this as JSON is kept as its head only."""
MAX_RESPONSE_DEPTH = 64
"""An answer nested deeper than this is kept as its text: the report must read back, and a
report read back may nest 100 levels (docs/reports.md, "Reading reports back")."""


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (node.values() if isinstance(node, dict)
                                                  else node))
    return False


def response_for_report(produced: Any) -> Any:
    """The server's answer as kept in the report: whole unless it is very large or deep."""
    if produced is None:
        return None
    text = json.dumps(produced, ensure_ascii=False, default=str)
    if len(text) <= MAX_RESPONSE_CHARS and not _deeper_than(produced, MAX_RESPONSE_DEPTH):
        return produced
    return {"truncated": True, "chars": len(text), "head": text[:MAX_RESPONSE_CHARS]}


def _lean(row_type: type[_Row], /, **values: Any) -> _Row:
    """`row_type(**values)` given only the values that differ from the field's default.

    Pydantic keeps, per instance, the set of names it was given: for 25 names that set is 2.2 KB,
    the largest part of a passed row, against 0.7 KB for the dozen a passed row really sets
    (10,000 rows: 15 MiB; docs/reports.md, "Scale"). The report is the same either way.
    """
    fields = row_type.model_fields
    given = {}
    for name, value in values.items():
        field = fields[name]
        # not `field.get_default(call_default_factory=True)`: it deep-copies every default
        # (docs/architecture.md, "Costs"); the row models' factories take no argument
        factory = cast("Callable[[], Any] | None", field.default_factory)
        default = factory() if factory is not None else field.default
        if type(value) is not type(default) or value != default:
            given[name] = value
    return row_type(**given)


def since_ms(start: float | None) -> float:
    """Milliseconds since a `time.perf_counter()` reading (0 without one)."""
    return 0.0 if start is None else (time.perf_counter() - start) * 1000


def assertion_result(
    planned: PlannedAssertion, status: Status, *, message: str | None = None,
    start: float | None = None, duration_ms: float | None = None, cost_usd: float = 0.0,
    cached: bool = False, judge: JudgeDetail | None = None, expected: Any = None,
    actual: Any = None, outside_verdict: bool = False,
) -> AssertionResult:
    """The row of one assertion; `start` (perf_counter) or `duration_ms` give its time."""
    a = planned.assertion
    return AssertionResult(
        index=planned.index, target=a.target, matcher=matcher_kind(a.matcher),
        spec=a.matcher.model_dump(mode="json", by_alias=True, exclude_defaults=True),
        status=status, message=message, user_message=a.message, location=planned.location,
        expected=expected, actual=actual,
        duration_ms=duration_ms if duration_ms is not None else since_ms(start),
        cost_usd=cost_usd, cached=cached, judge=judge, outside_verdict=outside_verdict)


def _cell(test: PlannedTest) -> dict[str, str] | None:
    """The row's coordinates as values: the model, and the whole prompt (the name shows its
    number)."""
    if not test.cell:
        return None
    cell = dict(test.cell)
    if "prompt" in cell and test.prompt is not None:
        cell["prompt"] = test.prompt
    return cell


def _subject(spec: Any) -> str | None:
    """What a server test addresses (the report's `tool` column): the tool, the resource URI or
    template, the prompt, or the listing's method."""
    if isinstance(spec, ToolTest):
        return spec.tool
    if isinstance(spec, ResourceTest):
        return spec.uri or spec.template
    if isinstance(spec, PromptTest):
        return spec.prompt
    if isinstance(spec, ListTest):
        return LIST_METHODS[spec.listing]
    return None


def test_result(
    test: PlannedTest, status: Status, *, assertions: list[AssertionResult] | None = None,
    gap: Any = None, message: str | None = None, start: float | None = None,
    duration_ms: float | None = None, response: Any = None, stderr: str | None = None,
    judge: JudgeDetail | None = None, extra_cost_usd: float = 0.0, cache_hits: int = 0,
    weighted: WeightedScore | None = None, timeline: list[WireStep] | None = None,
    timeline_dropped: int = 0, extra_cost_known: bool = True,
) -> TestResult:
    """The row of one planned test of any kind (also for tests that never ran).

    Cost and cache hits are summed from the assertions, plus what the row itself spent
    (`extra_cost_usd`: an eval's judges, an agent's model turns, `extra_cost_known` false when
    one of those had no known price; `cache_hits` likewise).
    """
    spec = test.spec
    by_index = {p.index: p for p in test.assertions}
    done = [a if a.index not in by_index else
            a.model_copy(update={"definition_hash": assertion_hash(test, by_index[a.index])})
            for a in assertions or []]
    votes = [v for a in done if a.judge for v in a.judge.votes] + (
        list(judge.votes) if judge is not None else [])
    return _lean(
        TestResult,
        id=test.id, name=test.name, kind=test.kind, suite_file=test.suite_file,
        server=getattr(spec, "server", None), tool=_subject(spec),
        model=test.model, cell=_cell(test), location=test.location, tags=list(test.tags),
        status=status, gap=gap, message=message,
        duration_ms=round(duration_ms if duration_ms is not None else since_ms(start), 3),
        args=spec.args if isinstance(spec, ToolTest | ResourceTest | PromptTest) else None,
        response=response_for_report(response),
        server_stderr=stderr or None, server_stderr_scope="test" if stderr else None,
        timeline=timeline or [], timeline_dropped=timeline_dropped,
        assertions=done, judge=judge,
        cost_usd=round(sum(a.cost_usd for a in done) + extra_cost_usd, 8),
        cost_known=extra_cost_known and all(v.cost_known for v in votes),
        cache_hits=sum(1 for a in done if a.cached) + cache_hits,
        definition_hash=test_hash(test),
        max_score_drop=(spec.max_score_drop if spec.max_score_drop is not None
                        else test.suite.suite.max_score_drop),
        weighted=weighted,
    )


def server_report(
    name: str, suite_file: str, transport: str, *, status: str = "ready",
    error: str | None = None, protocol_version: str | None = None,
    server_name: str | None = None, server_version: str | None = None,
    startup_ms: float | None = None, tools: list[dict[str, Any]] | None = None,
) -> ServerReport:
    """The row of one server connection (ready, or failed with its cause)."""
    return ServerReport(
        name=name, suite_file=suite_file, transport=transport,
        status=status, error=error, protocol_version=protocol_version,
        server_name=server_name, server_version=server_version,
        startup_ms=None if startup_ms is None else round(startup_ms, 1),
        tools=[str(t.get("name")) for t in tools or []],
    )
