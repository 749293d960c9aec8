"""The `md` reporter: the sticky PR comment and job summary, and its escaping."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from sample import SECRET, big_report, hostile_report, sample_report

from mcptest.report.models import Counts, Report, Summary
from mcptest.reporters import RenderOptions, get_reporter
from mcptest.reporters.escape import md_block, md_code, md_inline, md_title
from mcptest.reporters.markdown import MAX_CHARS, render, report_marker

# Tags the template itself writes; untrusted text must never add one.
ALLOWED_TAGS = {"details", "summary", "code", "pre", "br", "sub"}
TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)")


def _tables(text: str) -> list[list[str]]:
    """Consecutive `|` lines grouped into tables (raw lines)."""
    tables: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _cells(line: str) -> list[str]:
    """GFM cell split: on `|` not escaped by a backslash, outer pipes dropped."""
    inner = line.strip()
    assert inner.startswith("|") and inner.endswith("|"), line[:200]
    return re.split(r"(?<!\\)\|", inner[1:-1])


def _assert_tables_intact(text: str) -> int:
    tables = _tables(text)
    for table in tables:
        width = len(_cells(table[0]))
        assert re.fullmatch(r"\|(---\|)+", table[1]), table[1]
        for line in table:
            assert len(_cells(line)) == width, f"row breaks the table: {line[:300]}"
    return len(tables)


def _assert_inert(text: str) -> None:
    assert SECRET not in text
    assert "<script" not in text.lower()
    assert "@someone" not in text
    assert {m.group(2).lower() for m in TAG.finditer(text)} <= ALLOWED_TAGS
    for line in text.splitlines():
        stripped = line.lstrip()
        assert not stripped.startswith(("```", "~~~")), line[:200]
        assert not stripped.startswith("::"), line[:200]
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("md_sample.md", render(sample_report()))


def test_registry_names_this_module() -> None:
    assert get_reporter("md") is render


def test_marker_comes_first_and_names_the_suites() -> None:
    text = render(sample_report())
    first = text.splitlines()[0]
    assert first.startswith("<!-- mcptest-action")
    assert first == report_marker(sample_report())
    assert first == ("<!-- mcptest-action: suites=suites/agents.yaml,suites/broken.yaml,"
                     "suites/evals.yaml,suites/weather.yaml -->")


def test_marker_cannot_be_closed_or_split_by_a_suite_path() -> None:
    report = sample_report().model_copy(update={"suites": ["a-->b.yml", "c,d\n.yml"]})
    line = report_marker(report)
    assert line.count("-->") == 1 and line.endswith(" -->")
    assert "\n" not in line
    assert "suites=a--%3Eb.yml,c%2Cd%0A.yml" in line


def test_header_has_verdict_counts_review_and_cost_of_cap() -> None:
    header = render(sample_report()).splitlines()[1]
    assert header == (
        "### 💥 mcptest · 4 passed · 2 failed · 2 error · 1 skipped · 1 not yet available · "
        "1 judge test not run: no key · 1 to review · $0.0123 of $0.0500 cap"
    )


def test_failures_and_escalations_lead_the_table_passing_tests_collapse() -> None:
    text = render(sample_report())
    table = _tables(text)[0]
    marks = [_cells(row)[0].strip() for row in table[2:]]
    assert marks == ["❌", "❌", "💥", "💥", "🚧", "⏭️", "⚠️"]  # one row per test
    assert "passed, escalated" in table[-1]
    assert "🔴 low · α 0.00 · on 1.6 of 3 effective jurors · ⚠ review" in table[-1]
    assert "<details><summary>✅ 4 passed</summary>" in text
    assert text.index("| ❌ |") < text.index("✅ 4 passed")
    # the test no judge answered is counted, and listed once with its reason, not a row
    assert "<details><summary>⏸️ 1 judge test not run: no key</summary>" in text
    assert "| forecast-tone | <code>suites/weather.yaml&#58;46</code> | no judge API key" in text


def test_jury_shows_band_alpha_votes_reasons_and_escalation() -> None:
    text = render(sample_report())
    assert ("🔴 low · α 0.00 · rests on 1.6 effective jurors of 3 (votes over 24 juries) · 2/3 "
            "passed, quorum 0.50 · verdict passed · ⚠ escalated") in text
    votes = next(t for t in _tables(text) if t[0].startswith("| juror |")
                 and "claude" in "".join(t))
    assert len(votes) == 2 + 4
    # the dissent first: the stand-in that failed a jury that passed
    assert "stand-in for <code>openai/gpt-4o-mini</code>" in votes[2]
    assert "| 0.20 | ❌ dissents | Omits the wind speed the rubric asks for. |" in votes[2]
    assert "| 0.90 | ✅ | Gives a three-day forecast in Celsius as asked. |" in votes[3]
    assert "⚠️ error: timeout after 60 s" in votes[4]
    row = next(line for line in _tables(text)[0] if "forecast-jury" in line)
    assert ("passed, escalated · dissent&#58; mistral/mistral-small-latest 0.20&#58; Omits the "
            "wind speed the rubric asks for.") in row


def test_failures_are_expanded_in_details_each_reason_once() -> None:
    text = render(sample_report())
    block = text[text.index("<details open><summary>❌ forecast-units — exact "
                            "result.structuredContent.unit</summary>"):]
    block = block[:block.index("</details>")]
    assert ("- ❌ **exact** <code>result.structuredContent.unit</code>: expected 'celsius', got "
            "'fahrenheit' — note: units must be metric · <code>suites/weather.yaml&#58;22</code>"
            in block)
    assert text.count("expected 'celsius', got 'fahrenheit'") == 2  # the row, the block
    assert "completeness · required | 0.30 | 0.70 | 1.00 | failed |" in text
    assert "<pre>WARN region lookup failed&#58; XX</pre>" in text


def test_footer_never_hides_deferrals_cache_budget_gaps_or_version() -> None:
    text = render(sample_report())
    footer = text[text.index("<sub>🟢"):]
    for piece in ("1 verdict(s) from cache", "8 judge call(s) sent", "1 deferred (",
                  "1 skipped by the cost cap", "projected 10 judge call(s), bound $0.0612",
                  "run agreement α 0.41", "exit 3: a server never became ready",
                  "mcptest 0.1.0", "failures by cause: budget 1, environment 1, judgment 1, "
                  "shape 1, tool-error 1, transport 1", "• **budget**: "):
        assert piece in footer, piece
    assert footer.count("• **") == 3  # advice only for the leading categories


def test_every_table_has_rows_of_equal_width() -> None:
    assert _assert_tables_intact(render(sample_report())) == 6


def test_hostile_text_renders_inert() -> None:
    text = render(hostile_report())
    _assert_inert(text)
    assert _assert_tables_intact(text) >= 2
    assert "@\u200dsomeone" in text
    assert "&#60;script&#62;alert(1)&#60;/script&#62;" in text


def test_template_never_evaluates_report_text() -> None:
    base = sample_report()
    tricky = "{{ 7*7 }} {% if true %}x{% endif %} {# c #}"
    tests = [t.model_copy(update={"name": tricky, "message": tricky}) for t in base.tests]
    text = render(base.model_copy(update={"tests": tests}))
    assert "{{ 7&#42;7 }} {% if true %}x{% endif %}" in text
    assert "49" not in text


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a|b", "a&#124;b"),
        ("x\ny", "x<br>y"),
        ("```js", "&#96;&#96;&#96;js"),
        ("hi @bob", "hi @\u200dbob"),
        ("fixes #12", "fixes &#35;\u200d12"),
        ("<img src=x>", "&#60;img src=x&#62;"),
        ("&amp;", "&#38;amp;"),
        ("::error::x", "&#58;&#58;error&#58;&#58;x"),
        ("[a](http://e)", "&#91;a&#93;(http&#58;//e)"),
        ("$x$ *b* _i_ ~s~", "&#36;x&#36; &#42;b&#42; &#95;i&#95; &#126;s&#126;"),
        ("bell\x07esc\x1b[0m", "bellesc&#91;0m"),
        ("rtl\u202eevil", "rtlevil"),
    ],
)
def test_md_inline_escapes(raw: str, escaped: str) -> None:
    assert md_inline(raw) == escaped


def test_md_inline_shortens_before_escaping() -> None:
    assert md_inline("a|" * 10, limit=5) == "a&#124;a&#124;…"


def test_md_code_survives_backticks_and_pipes() -> None:
    assert md_code("a `b` | c") == "<code>a &#96;b&#96; &#124; c</code>"


def test_md_block_keeps_lines_but_no_line_can_open_a_fence_or_command() -> None:
    out = md_block("```\n::error::x\n~~~\n  <b>")
    assert out.split("\n") == ["&#96;&#96;&#96;", "&#58;&#58;error&#58;&#58;x",
                               "&#126;&#126;&#126;", "  &#60;b&#62;"]


def _long_failures(n: int) -> Report:
    """`n` failing tests, each with a long message and stderr, plus the sample's passes."""
    base = sample_report()
    template = next(t for t in base.tests if t.name == "forecast-units")
    extra = [
        template.model_copy(update={
            "id": f"{template.id}-{i}", "name": f"long-{i:03d}",
            "message": "m" * 900, "server_stderr": "e" * 1800,
        })
        for i in range(n)
    ]
    return base.model_copy(update={"tests": [*base.tests, *extra]})


def test_truncation_drops_passing_list_first_then_details_and_says_so() -> None:
    text = render(_long_failures(40))
    assert len(text) <= MAX_CHARS
    assert text.splitlines()[0].startswith("<!-- mcptest-action")
    assert text.splitlines()[1].startswith("### 💥 mcptest")
    note = next(line for line in text.splitlines() if line.startswith("> ✂️"))
    assert "the list of 4 passing test(s); the list of 1 test(s) not judged" in note
    assert re.search(r"details of \d+ of 47 test\(s\)", note)
    assert "full report is in the job artifacts" in note
    assert "✅ 4 passed (list left out to fit the comment)." in text
    assert "⏸️ 1 judge test not run: no key (list left out to fit the comment)." in text
    assert "<details><summary>✅" not in text and "<details><summary>⏸️" not in text
    assert text.count("<details") == text.count("</details>")
    assert text.count("<pre>") == text.count("</pre>")
    assert _assert_tables_intact(text) >= 1
    assert "<sub>🟢" in text  # the footer survives


def test_truncation_keeps_table_rows_when_only_passing_detail_must_go() -> None:
    full = render(sample_report())
    lists = full[full.index("<details><summary>⏸️"):full.index("<sub>🟢")]
    text = render(sample_report(), RenderOptions(max_chars=len(full) - len(lists) + 600))
    note = next(line for line in text.splitlines() if line.startswith("> ✂️"))
    assert "left out the list of 4 passing test(s); the list of 1 test(s) not judged." in note
    assert "table row" not in note and "details of" not in note
    assert len(_tables(text)[0]) == 2 + 7


def test_big_report_is_cut_to_size_with_rows_dropped() -> None:
    text = render(big_report(5000))
    assert len(text) <= MAX_CHARS
    note = next(line for line in text.splitlines() if line.startswith("> ✂️"))
    assert re.search(r"\d+ of \d+ table row\(s\)", note)
    _assert_tables_intact(text)


def test_small_reports_are_not_truncated() -> None:
    assert "✂️" not in render(sample_report())
    assert len(render(sample_report())) < MAX_CHARS


# --- rendered by GitHub's own markdown engine (cmark-gfm) -----------------------------------

RENDERED_TAGS = {"h3", "p", "table", "thead", "tbody", "tr", "th", "td", "details", "summary",
                 "code", "pre", "br", "sub", "ul", "li", "strong", "blockquote"}


class _Html(HTMLParser):
    """Tags, table rows (cell counts) and decoded text of cmark-gfm's output."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.rows: list[list[int]] = []  # per table: cells per row
        self.text: list[str] = []
        self._cells = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "table":
            self.rows.append([])
        elif tag == "tr":
            self._cells = 0
        elif tag in ("td", "th"):
            self._cells += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self.rows[-1].append(self._cells)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _github(markdown: str) -> _Html:
    # UNSAFE keeps raw HTML (details, summary, code) as GitHub does before its sanitizer.
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    parsed = _Html()
    parsed.feed(html)
    parsed.close()
    return parsed


def test_github_renders_the_sample_as_intended() -> None:
    page = _github(render(sample_report()))
    assert set(page.tags) <= RENDERED_TAGS
    # the review table, the eval's votes and criteria, the jury's votes, the two lists
    assert page.tags.count("table") == 6
    assert all(len(set(rows)) == 1 for rows in page.rows), page.rows
    assert page.rows[0] == [6] * (1 + 7)
    assert page.tags.count("details") == 7 + 2 + 1  # tests, the two lists, warnings
    assert page.tags.count("pre") == 3 + 2  # three responses, two stderr windows


def test_github_renders_hostile_text_as_plain_text() -> None:
    base = hostile_report()
    extra = " see https://evil.example/x www.evil.example ![i](http://t.example/p.png) [l](x)"
    tests = [t.model_copy(update={"message": extra + (t.message or "")}) for t in base.tests]
    page = _github(render(base.model_copy(update={"tests": tests})))
    assert set(page.tags) <= RENDERED_TAGS, set(page.tags) - RENDERED_TAGS
    assert all(len(set(rows)) == 1 for rows in page.rows), page.rows
    assert page.tags.count("pre") == 3  # a response, two stderr tails; nothing opened by text
    text = "".join(page.text)
    assert "<script>alert(1)</script>" in text  # shown as text, not parsed as a tag
    assert "@someone" not in text and "@\u200dsomeone" in text
    assert "www.evil.example" in text and "a" not in page.tags  # shown, never linked
    assert SECRET not in text


def test_every_cap_is_respected_and_keeps_the_comment_well_formed() -> None:
    report = _long_failures(12)
    full = render(report, RenderOptions(max_chars=10**9))
    for cap in range(8_000, len(full) + 2_000, 1_500):
        text = render(report, RenderOptions(max_chars=cap))
        assert len(text) <= cap, cap
        assert (text == full) == (cap >= len(full)), cap
        assert text.count("<details") == text.count("</details>"), cap
        assert text.startswith(report_marker(report)) and "<sub>🟢" in text, cap
        _assert_tables_intact(text)


def test_bias_warning_is_flagged_in_the_row_and_shown_in_details() -> None:
    base = sample_report()
    tests = []
    for t in base.tests:
        if t.name == "forecast-jury":
            a = t.assertions[0]
            assert a.judge is not None and a.judge.jury is not None
            jury = a.judge.jury.model_copy(update={
                "same_family": True, "bias_warning": "juror shares the generator's family @x"})
            judge = a.judge.model_copy(update={"jury": jury})
            t = t.model_copy(update={"assertions": [a.model_copy(update={"judge": judge})]})
        tests.append(t)
    text = render(base.model_copy(update={"tests": tests}))
    assert "| 🔴 low · α 0.00 · on 1.6 of 3 effective jurors · ⚠ review · ⚠ bias |" in text
    assert "> ⚠ bias: juror shares the generator's family @\u200dx" in text


def test_md_title_folds_newlines_for_summaries() -> None:
    assert md_title("a\nb|c") == "a b&#124;c"


def test_all_passing_and_empty_runs() -> None:
    base = sample_report()
    passing = [t for t in base.tests if t.status == "passed" and t.name != "forecast-jury"]
    green = base.model_copy(update={
        "tests": passing, "warnings": [],
        "summary": Summary(counts=Counts(total=3, passed=3), duration_ms=5, exit_code=0),
    })
    text = render(green)
    assert text.splitlines()[1] == "### ✅ mcptest · 3 passed · $0.0000"
    assert _tables(text)[0][0] == "| test | where | duration | cost |"
    assert "<details><summary>✅ 3 passed</summary>" in text
    empty = green.model_copy(update={
        "tests": [], "summary": Summary(counts=Counts(), duration_ms=5, exit_code=7)})
    text = render(empty)
    assert text.splitlines()[1] == "### ⚪ mcptest · 0 passed · $0.0000"
    assert "exit 7: no tests were selected" in text and not _tables(text)
