"""Shared report fixtures for every reporter's tests and the reporter benchmark.

`sample_report()` holds one of everything a reporter must show (each status, a jury that
escalated, a judge, a deferral, a budget skip, a cache hit, an eval with criteria, a server that
never started, gaps, cost and cap, run agreement). `hostile_report()` carries text that tries to
break every output format plus a secret for the redaction tests. `big_report(n)` is for bench/.
All three are deterministic: same call, same report.
"""

from __future__ import annotations

from typing import Any

from mcptest.report.models import (
    AssertionResult,
    Counts,
    CriterionResult,
    EffectiveJurors,
    JudgeDetail,
    JudgeVote,
    JuryAnalytics,
    Location,
    Report,
    ServerReport,
    Status,
    Summary,
    TestResult,
    ToolInfo,
)
from mcptest.report.scores import measured

SECRET = "sk-test-SECRET123456789"
"""The token `hostile_report()` leaks; no rendered output may contain it after redaction."""

WEATHER = "suites/weather.yaml"
BROKEN = "suites/broken.yaml"
EVALS = "suites/evals.yaml"
AGENTS = "suites/agents.yaml"


def _loc(file: str, line: int, column: int = 5) -> Location:
    return Location(file=file, line=line, column=column)


def _servers() -> list[ServerReport]:
    return [
        ServerReport(
            name="weather", suite_file=WEATHER, transport="stdio", status="ready",
            protocol_version="2025-11-25", server_name="weather-demo", server_version="1.4.0",
            startup_ms=412.5, tools=["get_forecast", "get_alerts"],
        ),
        ServerReport(
            name="broken", suite_file=BROKEN, transport="stdio", status="failed",
            error="server 'broken' never became ready: command not found: weather-srv-missing",
            stderr_tail="sh: 1: weather-srv-missing: not found",
        ),
        ServerReport(
            name="docs", suite_file=EVALS, transport="streamable-http", status="ready",
            protocol_version="2025-11-25", server_name="docs-search", server_version="0.9.2",
            startup_ms=88.0, tools=["search"],
        ),
    ]


def _jury_detail() -> JudgeDetail:
    """Three jurors, one timed out and was replaced; low agreement, escalated, quorum passed."""
    votes = [
        JudgeVote(model="anthropic/claude-haiku-4-5", family="anthropic", score=0.9, passed=True,
                  reason="Gives a three-day forecast in Celsius as asked.",
                  evidence="Mon 18°C, Tue 21°C, Wed 19°C", cost_usd=0.0011, latency_ms=812.0),
        JudgeVote(model="openai/gpt-4o-mini", family="openai", error="timeout after 60 s",
                  cost_usd=0.0, latency_ms=60000.0),
        JudgeVote(model="mistral/mistral-small-latest", family="mistral", score=0.2, passed=False,
                  reason="Omits the wind speed the rubric asks for.",
                  replacement_for="openai/gpt-4o-mini", cost_usd=0.0004, latency_ms=640.0),
        JudgeVote(model="gemini/gemini-2.0-flash", family="google", score=0.75, passed=True,
                  reason="Mostly complete; wind speed missing but minor.", cost_usd=0.0003,
                  latency_ms=505.0),
    ]
    jury = JuryAnalytics(
        agreement=0.0, agreement_raw=-0.6, units=1, confidence="low", escalate=True,
        same_family=False, decisive=3, passed_jurors=2, passed_fraction=0.67, quorum=0.5,
        verdict="passed",
        effective_jurors=EffectiveJurors(jurors=3, value=1.6, basis="votes",
                                         mean_correlation=0.4375, items=24),
    )
    return JudgeDetail(kind="llm-jury", rubric="A complete three-day forecast with wind speed.",
                       score=0.62, threshold=0.7, votes=votes, jury=jury)


def _weather_tests() -> list[TestResult]:
    exact_ok = AssertionResult(index=0, target="result.content[0].text", matcher="contains",
                               spec={"contains": "°C"}, status="passed",
                               location=_loc(WEATHER, 14, 9), duration_ms=0.1)
    cached_judge = AssertionResult(
        index=1, target="result.content[0].text", matcher="llm-judge",
        spec={"llm-judge": {"rubric": "Is it a forecast?", "threshold": 0.7}}, status="passed",
        location=_loc(WEATHER, 15, 9), cached=True,
        judge=JudgeDetail(kind="llm-judge", rubric="Is it a forecast?", score=0.95, threshold=0.7,
                          votes=[JudgeVote(model="anthropic/claude-haiku-4-5",
                                           family="anthropic", score=0.95, passed=True,
                                           reason="A forecast for Berlin.", cached=True)]),
    )
    return [
        TestResult(
            id=f"{WEATHER}::tool::forecast-ok", name="forecast-ok", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 10, 5),
            tags=["smoke"], status="passed", duration_ms=35.2, args={"city": "Berlin"},
            response={"result": {"content": [{"type": "text", "text": "Mon 18°C"}]}},
            assertions=[exact_ok, cached_judge], cache_hits=1,
        ),
        TestResult(
            id=f"{WEATHER}::tool::forecast-units", name="forecast-units", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 18, 5),
            status="failed", gap="shape", duration_ms=30.1, args={"city": "Boston"},
            response={"result": {"structuredContent": {"unit": "fahrenheit", "temp": 64}}},
            assertions=[AssertionResult(
                index=0, target="result.structuredContent.unit", matcher="exact",
                spec={"exact": "celsius"}, status="failed",
                message="expected 'celsius', got 'fahrenheit'", expected="celsius",
                actual="fahrenheit", location=_loc(WEATHER, 22, 9),
                user_message="units must be metric")],
        ),
        TestResult(
            id=f"{WEATHER}::tool::forecast-jury", name="forecast-jury", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 26, 5),
            status="passed", duration_ms=1950.0, args={"city": "Paris", "days": 3},
            response={"result": {"content": [{"type": "text", "text": "Mon 18°C, Tue 21°C"}]}},
            assertions=[AssertionResult(
                index=0, target="result.content[0].text", matcher="llm-jury",
                spec={"llm-jury": {"quorum": 0.5, "threshold": 0.7}}, status="passed",
                location=_loc(WEATHER, 30, 9), cost_usd=0.0018, duration_ms=1900.0,
                judge=_jury_detail())],
            cost_usd=0.0018,
        ),
        TestResult(
            id=f"{WEATHER}::tool::alerts-error", name="alerts-error", suite_file=WEATHER,
            server="weather", tool="get_alerts", location=_loc(WEATHER, 40, 5),
            status="error", gap="tool-error", duration_ms=12.0, args={"region": "XX"},
            message="tool returned isError: unknown region 'XX'",
            response={"error": {"code": -32602, "message": "unknown region 'XX'"}},
            server_stderr="WARN region lookup failed: XX",
        ),
        TestResult(
            id=f"{WEATHER}::tool::forecast-tone", name="forecast-tone", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 46, 5),
            status="deferred", gap="environment", duration_ms=20.0,
            message="deferred: no judge API key or gateway configured",
            assertions=[AssertionResult(
                index=0, target="result.content[0].text", matcher="llm-judge",
                spec={"llm-judge": {"rubric": "Friendly tone"}}, status="deferred",
                message="deferred: no judge API key or gateway configured",
                location=_loc(WEATHER, 50, 9))],
        ),
        TestResult(
            id=f"{WEATHER}::tool::forecast-detail", name="forecast-detail", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 54, 5),
            status="skipped", gap="budget", duration_ms=18.0,
            message="budget: reserving $0.0120 would cross the $0.0500 cap",
            assertions=[AssertionResult(
                index=0, target="result.content[0].text", matcher="llm-judge",
                spec={"llm-judge": {"rubric": "Mentions humidity"}}, status="skipped",
                message="budget: reserving $0.0120 would cross the $0.0500 cap",
                location=_loc(WEATHER, 58, 9))],
        ),
        TestResult(
            id=f"{WEATHER}::tool::forecast-stream", name="forecast-stream", suite_file=WEATHER,
            server="weather", tool="get_forecast", location=_loc(WEATHER, 62, 5),
            status="not_yet_available", duration_ms=0.0,
            message="NotYetAvailable: progress notifications are not supported yet",
        ),
    ]


def _eval_cell(model: str, status: Status, score: float, completeness: float) -> TestResult:
    completeness_ok = completeness >= 0.7
    criteria = [
        CriterionResult(name="accuracy", score=0.9, threshold=0.7, weight=2.0,
                        reason="Facts match the source.", evidence="released in 2024"),
        CriterionResult(name="completeness", score=completeness, threshold=0.7, required=True,
                        status="passed" if completeness_ok else "failed",
                        reason="Covers all sections." if completeness_ok
                        else "Leaves out the pricing section."),
        CriterionResult(name="no-hallucination", score=0.0, threshold=0.5, guard=True,
                        reason="Nothing invented."),
    ]
    detail = JudgeDetail(kind="eval", rubric="Summarise the release notes.", score=score,
                         display_score=f"{score * 5:.1f}/5", threshold=0.7, criteria=criteria,
                         votes=[JudgeVote(model=model, score=score, passed=status == "passed",
                                          reason="See criteria.", cost_usd=0.0021)])
    cell_name = f"summary-quality[model={model}]"
    return TestResult(
        id=f"{EVALS}::eval::{cell_name}", name=cell_name, kind="eval", suite_file=EVALS,
        server="docs", model=model, cell={"model": model}, location=_loc(EVALS, 8, 5),
        status=status, gap=None if status == "passed" else "judgment", duration_ms=2400.0,
        message=None if status == "passed" else "required criterion 'completeness' below 0.7",
        judge=detail, cost_usd=0.0021, tags=["quality"],
    )


def _other_tests() -> list[TestResult]:
    return [
        TestResult(
            id=f"{BROKEN}::tool::ping", name="ping", suite_file=BROKEN, server="broken",
            tool="ping", location=_loc(BROKEN, 9, 5), status="error", gap="transport",
            message="server 'broken' never became ready: command not found: weather-srv-missing",
            server_stderr="sh: 1: weather-srv-missing: not found",
        ),
        _eval_cell("openai/gpt-4o-mini", "failed", 0.55, 0.3),
        _eval_cell("anthropic/claude-haiku-4-5", "passed", 0.86, 0.8),
        TestResult(
            id=f"{AGENTS}::agent::trip-planner[model=openai/gpt-4o-mini]",
            name="trip-planner[model=openai/gpt-4o-mini]", kind="agent", suite_file=AGENTS,
            server="weather", model="openai/gpt-4o-mini", cell={"model": "openai/gpt-4o-mini"},
            location=_loc(AGENTS, 4, 5), status="passed", duration_ms=5100.0, cost_usd=0.0042,
            assertions=[AssertionResult(index=0, target="tool_calls[*].name", matcher="contains",
                                        spec={"contains": "get_forecast"}, status="passed",
                                        location=_loc(AGENTS, 9, 9))],
        ),
    ]


def _counts(tests: list[TestResult]) -> Counts:
    by: dict[str, int] = {}
    for t in tests:
        by[t.status] = by.get(t.status, 0) + 1
    return Counts(total=len(tests), **by)


def _gaps(tests: list[TestResult]) -> dict[str, int]:
    gaps: dict[str, int] = {}
    for t in tests:
        if t.gap:
            gaps[t.gap] = gaps.get(t.gap, 0) + 1
    return dict(sorted(gaps.items()))


def _report(tests: list[TestResult], servers: list[ServerReport], **summary: Any) -> Report:
    suites = sorted({t.suite_file for t in tests} | {s.suite_file for s in servers})
    return Report(
        tool=ToolInfo(version="0.1.0"), started_at="2026-11-22T02:00:00Z",
        finished_at="2026-11-22T02:00:09Z", suites=suites, servers=servers, tests=tests,
        summary=Summary(counts=_counts(tests), gaps=_gaps(tests),
                        not_measured=sum(1 for t in tests if not measured(t)), **summary),
    )


def sample_report() -> Report:
    """One report holding every status and every judge shape reporters must render."""
    tests = _weather_tests() + _other_tests()
    report = _report(
        tests, _servers(), duration_ms=9120.0, exit_code=3, cost_usd=0.0123, max_cost_usd=0.05,
        budget_stopped=True, judge_calls=8, cache_hits=1, projected_judge_calls=10,
        cost_bound_usd=0.0612, run_agreement=0.41,
    )
    return report.model_copy(update={"warnings": [
        "jury on forecast-jury escalated for human review (agreement 0.00, low confidence)",
        "1 judge assertion deferred: no judge API key or gateway configured",
    ]})


def hostile_report() -> Report:
    """Text that tries to break every format, and a leaked secret, in untrusted fields."""
    long_line = "A" * 5000
    nasty = (
        f"a | b | c\n```\nrm -rf /\n```\n@someone <script>alert(1)</script>\n"
        f"::error::boom %0A::warning::injected\r\n\x1b[31mred\x1b[0m \x00\x07 {long_line}"
    )
    vote = JudgeVote(model="openai/gpt-4o-mini", score=0.1, passed=False,
                     reason=f"Leaked key {SECRET} in output. {nasty}", evidence=f"`{SECRET}` |")
    failing = AssertionResult(
        index=0, target="result", matcher="llm-judge", spec={"rubric": f"no | pipes {SECRET}"},
        status="failed", message=f"judge said: {nasty}", expected="<b>safe</b>",
        actual=f"token={SECRET}", location=_loc(WEATHER, 12, 9),
        judge=JudgeDetail(kind="llm-judge", rubric="</testcase><script>x</script>", score=0.1,
                          threshold=0.7, votes=[vote]),
    )
    tests = [
        TestResult(
            id=f"{WEATHER}::tool::evil|name", name="evil | `name` <i>@someone</i>",
            suite_file=WEATHER, server="weather", tool="get_forecast",
            location=_loc(WEATHER, 10, 5), status="failed", gap="judgment",
            message=nasty, args={"q": SECRET, "note": "]]>--><!--"},
            response={"result": {"content": [{"type": "text", "text": f"{nasty} {SECRET}"}]}},
            server_stderr=f"debug: using key {SECRET}\n::error::boom\n{long_line}",
            assertions=[failing],
        ),
        TestResult(
            id=f"{WEATHER}::tool::skip-evil", name="skip # TODO not really", suite_file=WEATHER,
            server="weather", location=_loc(WEATHER, 20, 5), status="skipped", gap="budget",
            message=f"budget: skipped {nasty}",
        ),
        TestResult(
            id=f"{WEATHER}::tool::err-evil", name="err\nnewline", suite_file=WEATHER,
            server="weather", location=_loc(WEATHER, 30, 5), status="error", gap="transport",
            message=f"crashed: {SECRET} {nasty}", server_stderr=f"Authorization: Bearer {SECRET}",
        ),
    ]
    servers = [ServerReport(name="weather", suite_file=WEATHER, transport="stdio",
                            status="ready", server_name=f"evil <b>{SECRET}</b>",
                            stderr_tail=nasty)]
    report = _report(tests, servers, duration_ms=100.0, exit_code=1, cost_usd=0.001)
    return report.model_copy(update={"warnings": [f"server printed {SECRET} | {nasty}"]})


_BIG_STATUSES: tuple[Status, ...] = (
    "passed", "passed", "passed", "passed", "failed", "passed", "error", "skipped", "passed",
    "deferred", "passed", "not_yet_available",
)


def big_report(n: int) -> Report:
    """`n` tests over 20 suite files with a realistic status mix, for benchmarks."""
    tests: list[TestResult] = []
    for i in range(n):
        status = _BIG_STATUSES[i % len(_BIG_STATUSES)]
        file = f"suites/big-{i % 20:02d}.yaml"
        line = 5 + (i // 20) * 6
        failed = status in ("failed", "error")
        assertion = AssertionResult(
            index=0, target="result.content[0].text", matcher="exact" if i % 2 else "llm-judge",
            spec={"exact": f"value {i}"}, status=status,
            message=f"expected 'value {i}', got 'other {i}'" if failed else None,
            expected=f"value {i}", actual=f"other {i}" if failed else f"value {i}",
            location=_loc(file, line + 3, 9), cost_usd=0.0001 if i % 2 == 0 else 0.0,
        )
        tests.append(TestResult(
            id=f"{file}::tool::t{i:05d}", name=f"t{i:05d}", suite_file=file, server="weather",
            tool="get_forecast", location=_loc(file, line), status=status,
            gap="shape" if failed else None, duration_ms=float(i % 97),
            message=f"budget: skipped test {i}" if status == "skipped" else None,
            args={"city": f"city-{i}"},
            response={"result": {"content": [{"type": "text", "text": f"other {i} " * 8}]}},
            assertions=[assertion], cost_usd=assertion.cost_usd,
        ))
    return _report(tests, _servers()[:1], duration_ms=float(n) * 10, exit_code=1,
                   cost_usd=round(sum(t.cost_usd for t in tests), 6), max_cost_usd=10.0)
