"""The comment says why at a glance (issue 27; docs/pr-comment.md): one row and one block per
test with all its failing checks, each reason once, the response once and pretty-printed, the
jury's votes and dissent before the checks that read it, stderr of the test's own window, and a
headline that counts what was not judged."""

from __future__ import annotations

import json
import re

from sample import WEATHER, _jury_detail, _loc, _report, _servers, sample_report

from mcptest.report.models import AssertionResult, JudgeDetail, Report
from mcptest.report.models import TestResult as Row
from mcptest.reporters.markdown import render
from mcptest.reporters.response_view import MAX_LINES, MAX_STRING, view

NO_KEY = "deferred: no OPENAI_API_KEY and no MCPTEST_JUDGE_BASE_URL for judge 'gpt-4o-mini'"


def _check(index: int, target: str, matcher: str, message: str, **extra: object) -> AssertionResult:
    return AssertionResult(index=index, target=target, matcher=matcher, spec={matcher: 1},
                           status="failed", message=message, location=_loc(WEATHER, 30 + index),
                           **extra)  # type: ignore[arg-type]


def _tool_test(name: str, checks: list[AssertionResult], **extra: object) -> Row:
    fields: dict[str, object] = {
        "id": f"{WEATHER}::tool::{name}", "name": name, "suite_file": WEATHER,
        "server": "weather", "tool": "get_forecast", "location": _loc(WEATHER, 20),
        "status": "failed", "gap": "shape", "args": {"city": "Oslo"}, "assertions": checks,
        **extra}
    return Row(**fields)  # type: ignore[arg-type]


def _one(*tests: Row, exit_code: int = 1) -> Report:
    return _report(list(tests), _servers()[:1], duration_ms=10.0, exit_code=exit_code)


def _block(text: str, name: str) -> str:
    start = text.index(f"{name} — ")
    return text[text.rindex("<details", 0, start):text.index("</details>", start)]


FORECAST = {"city": "Oslo", "days": [{"day": "Mon", "temp_c": 18}, {"day": "Tue", "temp_c": 21}]}
LONG = "L" * (MAX_STRING + 1234)


def _many_checks() -> Row:
    response = {"result": {"content": [{"type": "text", "text": json.dumps(FORECAST, indent=2)},
                                       {"type": "text", "text": LONG}],
                           "structuredContent": FORECAST, "isError": False}}
    return _tool_test("forecast-shape", [
        _check(0, "result.structuredContent.city", "exact", "expected 'Bergen', got 'Oslo'"),
        _check(1, "result.structuredContent.days", "schema",
               "does not match the schema: 2 is less than the minimum of 3"),
        _check(2, "result.content[0].text", "contains", "expected to contain 'wind', got …"),
        _check(3, "result.isError", "exact", "expected true, got false"),
    ], response=response, server_stderr="WARN slow upstream\nWARN retry 1",
        server_stderr_scope="test")


def test_a_test_with_many_failing_checks_is_one_row_and_one_block_each_reason_once() -> None:
    text = render(_one(_many_checks()))
    rows = [line for line in text.splitlines() if line.startswith("| ❌ |")]
    assert len(rows) == 1 and "· +3 more checks |" in rows[0]
    assert text.count("<details open><summary>❌ forecast-shape") == 1
    block = _block(text, "forecast-shape")
    assert "4 checks&#58; exact, schema, contains" in block.splitlines()[0]
    lines = [line for line in block.splitlines() if line.startswith("- ❌ **")]
    assert len(lines) == 4
    # the lead reason is in the row and its check line; every other reason only in the block
    assert text.count("expected 'Bergen', got 'Oslo'") == 2
    for reason in ("2 is less than the minimum of 3", "expected true, got false"):
        assert text.count(reason) == 1, reason


def test_the_response_is_shown_once_indented_with_json_text_parsed_and_long_strings_cut() -> None:
    text = render(_one(_many_checks()))
    block = _block(text, "forecast-shape")
    assert block.count("response · ") == 1 and text.count("<pre>{") == 1
    assert ("response · 2.0 kB · 1 string holding JSON shown parsed · 1 long string cut\n<pre>{"
            in block)
    pre = block[block.index("<pre>{"):block.index("</pre>", block.index("<pre>{"))]
    assert "\\n" not in pre and '\\"' not in pre  # no escaped blob
    assert '        "text"&#58; {\n          "city"&#58; "Oslo",' in pre  # the text's JSON, indented
    assert f"{'L' * MAX_STRING}… &#91;1,234 more characters&#93;" in pre
    assert "server stderr while this test ran:\n<pre>WARN slow upstream\nWARN retry 1</pre>" \
        in block


def test_stderr_not_known_to_be_the_tests_own_is_labelled_server_wide() -> None:
    old = _many_checks().model_copy(update={"server_stderr_scope": None})
    block = _block(render(_one(old)), "forecast-shape")
    assert "server stderr (the server's tail, not only this test's):\n<pre>WARN" in block
    assert "while this test ran" not in block


def _jury_test() -> Row:
    judge = _jury_detail()
    jury = judge.jury.model_copy(update={"escalate": True})  # type: ignore[union-attr]
    judged = AssertionResult(
        index=0, target="result.content[0].text", matcher="llm-jury", spec={"llm-jury": {}},
        status="passed", location=_loc(WEATHER, 24), cost_usd=0.0018,
        user_message="reads as a complete forecast",
        judge=judge.model_copy(update={"jury": jury}))
    readers = [
        _check(1, "jury.agreement", "schema",
               "does not match the schema: 0.0 is less than the minimum of 0.7"),
        _check(2, "jury.confidence", "not",
               "expected `exact` not to match, but it did (value \"low\")"),
        _check(3, "jury.escalate", "exact", "expected false, got true"),
    ]
    return _tool_test("forecast-jury-gated", [judged, *readers], gap="judge-reliability",
                      cost_usd=0.0018, response={"result": {"content": [
                          {"type": "text", "text": "Mon 18°C, Tue 21°C"}]}})


def test_a_jury_block_leads_with_its_votes_and_dissent_then_the_checks_that_read_it() -> None:
    text = render(_one(_jury_test()))
    (row,) = [line for line in text.splitlines() if line.startswith("| ❌ | forecast-jury")]
    assert "| llm-jury 2/3, quorum 0.50 · +3 more checks |" in row
    assert "passed, escalated · dissent&#58; mistral/mistral-small-latest 0.20&#58; Omits" in row
    block = _block(text, "forecast-jury-gated")
    order = [block.index(piece) for piece in (
        "⚠️ **llm-jury** <code>result.content&#91;0&#93;.text</code> — note: reads as a "
        "complete forecast",
        "🔴 low · α 0.00 · rests on 1.6 effective jurors of 3 (votes over 24 juries) · 2/3 "
        "passed, quorum 0.50 · verdict passed · ⚠ escalated for review",
        "| juror | family | score | vote | reason |",
        "❌ dissents | Omits the wind speed the rubric asks for. |",
        "| <code>anthropic/claude-haiku-4-5</code>",
        "- ❌ **schema** <code>jury.agreement</code>",
        "- ❌ **not** <code>jury.confidence</code>",
        "- ❌ **exact** <code>jury.escalate</code>",
        "response · ",
    )]
    assert order == sorted(order)
    assert block.count("response · ") == 1  # not once per jury.* check


def _keyless(passed: int, deferred: int) -> Report:
    ok = [_tool_test(f"ok-{i}", [], status="passed", gap=None) for i in range(passed)]
    waiting = [_tool_test(f"judged-{i}", [AssertionResult(
        index=0, target="result.content[0].text", matcher="llm-judge", spec={}, status="deferred",
        message=NO_KEY, location=_loc(WEATHER, 40),
        judge=JudgeDetail(kind="llm-judge", votes=[]))], status="deferred", gap="environment")
        for i in range(deferred)]
    return _one(*ok, *waiting, exit_code=0)


def test_the_headline_counts_what_was_not_judged_never_a_bare_passed() -> None:
    text = render(_keyless(2, 29))
    assert text.splitlines()[1] == "### ✅ mcptest · 2 passed · 29 judge tests not run: no key · $0.0000"
    assert "> ⏸️ 29 judge tests not run, so not measured (never a pass): no OPENAI&#95;API&#95;KEY" \
        " and no `MCPTEST_JUDGE_BASE_URL` for a gateway." in text
    assert "| ⏸️ |" not in text  # listed once, collapsed, not 29 rows of the same reason
    assert "<details><summary>⏸️ 29 judge tests not run: no key</summary>" in text
    assert text.count("no OPENAI&#95;API&#95;KEY and no MCPTEST&#95;JUDGE&#95;BASE&#95;URL") == 29
    one = render(_keyless(0, 1)).splitlines()[1]
    assert one == "### ✅ mcptest · 0 passed · 1 judge test not run: no key · $0.0000"


def test_mixed_causes_are_counted_each_and_only_our_words_reach_the_headline() -> None:
    report = _keyless(1, 2)
    tests = list(report.tests)
    tests[-1] = tests[-1].model_copy(update={"assertions": [tests[-1].assertions[0].model_copy(
        update={"message": "deferred: no provider for 'x' <b>@evil</b>"})]})
    head = render(report.model_copy(update={"tests": tests})).splitlines()[1]
    assert head == ("### ✅ mcptest · 1 passed · 2 judge tests not run: no key 1, model without "
                    "a provider 1 · $0.0000")


def test_an_advisory_deferral_is_a_finding_not_a_test_that_did_not_run() -> None:
    base = _keyless(0, 1)
    (t,) = base.tests
    judge = JudgeDetail(kind="llm-judge", score=0.2, threshold=0.7, votes=[
        _jury_detail().votes[2]])
    advisory = t.model_copy(update={"assertions": [t.assertions[0].model_copy(update={
        "message": "advisory (uncalibrated: stale); judge said failed: score 0.20",
        "judge": judge})]})
    text = render(base.model_copy(update={"tests": [advisory]}))
    assert text.splitlines()[1] == "### ✅ mcptest · 0 passed · 1 deferred · $0.0000"
    assert "| ⏸️ | judged-0 |" in text and "not run" not in text


def test_the_sample_has_no_reason_more_than_twice() -> None:
    """Every grader message shows at most in its row and in its block (it was 4–6 times)."""
    text = render(sample_report())
    report = sample_report()
    for t in report.tests:
        for a in t.assertions:
            if a.message and a.status != "passed":
                escaped = a.message.replace(":", "&#58;").replace("$", "&#36;")
                assert text.count(escaped) <= 2, a.message


# --- the response view ----------------------------------------------------------------------


def test_view_keeps_short_answers_whole_and_cuts_long_ones_at_a_line() -> None:
    small = view({"result": {"isError": False}})
    assert small.text == '{\n  "result": {\n    "isError": false\n  }\n}'
    assert small.note == "30 B"
    big = view({"result": {"items": list(range(200))}})
    assert len(big.text.splitlines()) == MAX_LINES
    assert re.fullmatch(r"\d+ B · \d+ more lines in the JSON report", big.note)


def test_view_of_a_response_the_report_cut_says_so() -> None:
    cut = view({"truncated": True, "chars": 2_500_000, "head": '{"result": "' + "x" * 9000})
    assert cut.note == "2.5 MB answer; the report kept its start · cut at 3,000 characters"
    assert cut.text.endswith("x…") and len(cut.text) == 3001


def test_view_never_recurses_past_its_depth() -> None:
    deep: object = "bottom"
    for _ in range(200):
        deep = [deep]
    assert "…" in view({"result": deep}).text


def test_a_passing_jury_is_shown_before_the_jury_check_that_failed() -> None:
    """The jury passed and did not escalate, but a `jury.*` gate failed: its votes are still
    the why, shown first; the row leads with the failed gate and carries the jury's band."""
    t = _jury_test()
    judged, agreement = t.assertions[0], t.assertions[1]
    calm = judged.judge.jury.model_copy(update={"escalate": False})  # type: ignore[union-attr]
    judged = judged.model_copy(update={"judge": judged.judge.model_copy(  # type: ignore[union-attr]
        update={"jury": calm})})
    text = render(_one(t.model_copy(update={"assertions": [judged, agreement]})))
    (row,) = [line for line in text.splitlines() if line.startswith("| ❌ | forecast-jury")]
    assert "| schema <code>jury.agreement</code> | does not match the schema" in row
    assert "| 🔴 low · α 0.00 · on 1.6 of 3 effective jurors |" in row and "more check" not in row
    block = _block(text, "forecast-jury-gated")
    assert block.splitlines()[0].endswith("— schema jury.agreement</summary>")
    assert block.index("✅ **llm-jury**") < block.index("❌ dissents") < block.index(
        "- ❌ **schema** <code>jury.agreement</code>")
