"""The `pretty` terminal reporter."""

from __future__ import annotations

import re
from collections.abc import Callable

from sample import SECRET, hostile_report, sample_report

from mcptest.report.models import JudgeVote
from mcptest.reporters import RenderOptions, get_reporter
from mcptest.reporters.escape import terminal
from mcptest.reporters.pretty import render

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("pretty_sample.txt", render(sample_report()))


def test_registry_names_this_module() -> None:
    assert get_reporter("pretty") is render


def test_one_line_per_test_with_mark_name_duration_and_cost() -> None:
    lines = render(sample_report()).splitlines()
    heads = [line for line in lines if re.match(r"[✓✗!\-~…] [A-Z]", line)]
    assert len(heads) == len(sample_report().tests)
    assert "✓ PASS  forecast-jury  suites/weather.yaml:26  score 0.62  1.95 s  $0.0018" in heads
    assert "✗ FAIL  forecast-units  suites/weather.yaml:18  30 ms" in heads


def test_failure_detail_sits_below_its_test() -> None:
    text = render(sample_report())
    block = text[text.index("✗ FAIL  forecast-units"):text.index("✓ PASS  forecast-jury")]
    assert "#0 result.structuredContent.unit · exact · failed (suites/weather.yaml:22)" in block
    assert 'expected: "celsius"' in block and 'actual:   "fahrenheit"' in block
    assert "expected 'celsius', got 'fahrenheit'" in block
    assert "note: units must be metric" in block


def test_errored_test_shows_the_server_stderr_tail() -> None:
    text = render(sample_report())
    block = text[text.index("! ERROR alerts-error"):text.index("~ DEFER")]
    assert "[tool-error] tool returned isError: unknown region 'XX'" in block
    assert "| WARN region lookup failed: XX" in block


def test_jury_line_has_band_alpha_tally_and_every_vote() -> None:
    text = render(sample_report())
    assert ("jury: low · α 0.00 · rests on 1.6 effective jurors of 3 (votes over 24 juries) · "
            "2/3 passed, quorum 0.50 · verdict passed, escalated for review") in text
    assert "✓ anthropic/claude-haiku-4-5 (anthropic): 0.90  Gives a three-day" in text
    assert "! openai/gpt-4o-mini (openai): error: timeout after 60 s" in text
    assert ("✗ mistral/mistral-small-latest (mistral) [stand-in for openai/gpt-4o-mini]: 0.20"
            in text)


def test_summary_has_counts_deferrals_cache_cost_gaps_advice_and_exit_meaning() -> None:
    text = render(sample_report())
    summary = text[text.index("─" * 60):]
    assert ("4 passed, 2 failed, 2 error, 1 skipped, 1 deferred, 1 not yet available of 11 "
            "in 9.12 s") in summary
    assert ("1 deferred · 1 cache hit(s) · 8 judge call(s) · cost $0.0123 of $0.0500 cap "
            "(budget stopped the run)") in summary
    assert "gaps: budget 1, environment 1, judgment 1, shape 1, tool-error 1, transport 1" in summary
    advice = [line for line in summary.splitlines() if line.startswith("    ")]
    assert [a.split(":")[0].strip() for a in advice] == ["budget", "environment", "judgment"]
    assert summary.rstrip().endswith("exit 3: a server never became ready")


def test_an_unknown_cost_is_never_shown_as_known() -> None:
    """A model without a known price leaves its tests' cost a lower bound, and the summary
    says so instead of a bare figure."""
    rep = sample_report()
    rep.tests[0] = rep.tests[0].model_copy(update={"cost_known": False})
    assert "cost $0.0123 + unknown (a model has no known price) of $0.0500 cap" in render(rep)


def test_no_colour_unless_asked() -> None:
    plain = render(sample_report())
    coloured = render(sample_report(), RenderOptions(color=True))
    assert "\x1b" not in plain
    assert "\x1b[31m✗ FAIL \x1b[0m" in coloured
    assert ANSI.sub("", coloured) == plain


def test_hostile_text_cannot_drive_the_terminal_or_a_ci_log() -> None:
    for color in (False, True):
        text = ANSI.sub("", render(hostile_report(), RenderOptions(color=color)))
        assert "\x1b" not in text
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text.replace("\n", ""))
        assert SECRET not in text
        for line in text.splitlines():
            assert not line.lstrip().startswith("::"), line[:120]
    assert "\\x1b[31mred\\x1b[0m \\x00\\x07" in render(hostile_report())


def test_a_line_of_untrusted_text_never_starts_with_a_workflow_command() -> None:
    base = sample_report()
    tests = [
        t.model_copy(update={"message": "::error::from message", "gap": None,
                             "server_stderr": "::add-mask::x"})
        if t.status == "error" else t
        for t in base.tests
    ]
    text = render(base.model_copy(update={"tests": tests}))
    assert "    › ::error::from message" in text
    assert "| ::add-mask::x" in text
    for line in text.splitlines():
        assert not line.lstrip().startswith("::"), line


def test_terminal_escape_makes_controls_and_bidi_visible() -> None:
    assert terminal("a\x1b[2Jb\u202ec\r\nd") == "a\\x1b[2Jb\\u202ec⏎ d"
    assert terminal("x\ny", keep_newlines=True) == "x\ny"
    assert terminal(f"key {SECRET}") == "key [REDACTED]"


def test_a_passed_eval_decided_without_a_deferred_judge_shows_the_note_and_votes() -> None:
    """docs/jury.md, "Partial juries": the deferred vote is shown (`~`), as on a jury row."""
    report = sample_report()
    row = next(t for t in report.tests if t.kind == "eval" and t.status == "passed")
    assert row.judge is not None
    missing = JudgeVote(model="claude-haiku-4-5", family="anthropic", deferred=True,
                        error="deferred: no ANTHROPIC_API_KEY")
    note = "panel mean 0.90 ≥ threshold 0.70 (1 deferred; no verdict of theirs could change it)"
    partial = row.model_copy(update={"message": note, "judge": row.judge.model_copy(
        update={"votes": [*row.judge.votes, missing]})})
    report.tests[report.tests.index(row)] = partial
    block = render(report).split(f"✓ PASS  {row.name}", 1)[1].split("\n✓ ", 1)[0]
    assert note in block
    assert "~ claude-haiku-4-5 (anthropic): deferred: no ANTHROPIC_API_KEY" in block
    assert f"✓ {row.judge.votes[0].model}" in block  # every vote, not only the missing one
    plain = render(sample_report()).split(f"✓ PASS  {row.name}", 1)[1].split("\n✓ ", 1)[0]
    assert "See criteria." not in plain  # a plain pass stays one line
