"""Strings that came from a file read back are text in every human format: a suite path with
terminal escapes, a gap category that closes the comment's `<details>`, a surface snapshot's
names (docs/reports.md, "Reading reports back")."""

from __future__ import annotations

import cmarkgfm
from reporters.sample import sample_report

from mcptest.report.models import Location, Report, Summary
from mcptest.reporters import get_reporter
from mcptest.surface.diff import Change
from mcptest.surface.render import changes_markdown, changes_text

HOSTILE = "x\x1b[2J\x1b]52;c;b3duZWQ=\x07\n::error::owned</details><img src=x>@octocat"


def hostile_paths() -> Report:
    """`model_construct` skips validation: what a reporter gets must be safe whatever it is."""
    report = sample_report()
    tests = [t.model_copy(update={"location": Location.model_construct(
        file=HOSTILE, line=3, column=1)}) for t in report.tests]
    summary = Summary.model_construct(**{**dict(report.summary),
                                         "gaps": {HOSTILE: 2, "transport": 1}})
    return report.model_copy(update={"tests": tests, "summary": summary})


def _no_raw(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text
    assert not any(line.startswith("::") for line in text.splitlines())


def test_the_terminal_sees_escapes_as_text() -> None:
    out = get_reporter("pretty")(hostile_paths())
    _no_raw(out)
    assert "\\x1b]52;c;b3duZWQ=\\x07" in out  # shown, not sent


def test_markdown_keeps_its_blocks_closed_and_nothing_active() -> None:
    md = get_reporter("md")(hostile_paths())
    _no_raw(md)
    assert md.count("</details>") == md.count("<details")
    html = cmarkgfm.github_flavored_markdown_to_html(md)
    assert "<img" not in html and "@octocat" not in html


def test_html_escapes_them() -> None:
    html = get_reporter("html")(hostile_paths())
    assert "<img src=x>" not in html and "\x1b" not in html


def test_surface_changes_are_text_in_both_formats() -> None:
    change = Change(kind="tool-removed", server=HOSTILE, section="tools", item=HOSTILE,
                    message=f"tool `{HOSTILE}` was removed", detail=HOSTILE)
    _no_raw(changes_text([change]))
    md = changes_markdown([change])
    _no_raw(md)
    html = cmarkgfm.github_flavored_markdown_to_html(md)
    assert "<img" not in html and "</details>" not in md
