"""Workflow-command escaping, annotations within GitHub's limits, and stop-commands."""

from __future__ import annotations

import io

from reports import escalated_pass, make_report

from mcptest.action.commands import (
    Annotation,
    annotations_for,
    command,
    escape_data,
    escape_property,
    stop_commands,
)


def test_escaping_matches_the_toolkit() -> None:
    assert escape_data("50% a\r\nb") == "50%25 a%0D%0Ab"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert escape_data("%0A") == "%250A"  # % first, so an escaped sequence stays literal


def test_command_skips_empty_properties() -> None:
    assert command("warning", "hi") == "::warning::hi"
    assert command("error", "m", file="a,b.yml", line=3, title=None) == "::error file=a%2Cb.yml,line=3::m"


def test_annotation_of_a_failed_assertion_points_at_its_line() -> None:
    report = make_report(["passed", "failed"], message="expected 5,\ngot ::error::4")
    kept, left = annotations_for(report)
    assert left == {}
    assert kept == [Annotation(
        level="error", title="mcptest failed: test 1", file="suites/demo.yml", line=13, col=9,
        message="result.structuredContent.result exact: expected 5,\ngot ::error::4",
    )]
    line = kept[0].render()
    assert line == (
        "::error file=suites/demo.yml,line=13,col=9,title=mcptest failed%3A test 1::"
        "result.structuredContent.result exact: expected 5,%0Agot ::error::4"
    )
    assert "\n" not in line


def test_at_most_ten_per_level_and_the_rest_counted() -> None:
    report = make_report(["failed"] * 8 + ["error"] * 5 + ["skipped"] * 12 + ["deferred"] * 2)
    kept, left = annotations_for(report)
    levels = [a.level for a in kept]
    assert levels.count("error") == 10 and levels.count("warning") == 10
    assert levels.count("notice") == 2
    assert left == {"error": 3, "warning": 2}
    assert [a.title for a in kept[:10]] == [f"mcptest {s}: test {i}" for i, s in
                                           enumerate(["failed"] * 8 + ["error"] * 2)]


def test_escalated_pass_is_a_warning_and_paths_follow_working_directory() -> None:
    report = make_report(["passed"])
    report = report.model_copy(update={"tests": [*report.tests, escalated_pass()]})
    kept, _ = annotations_for(report, path_prefix="services/api/")
    assert len(kept) == 1
    assert kept[0].level == "warning" and kept[0].title == "mcptest escalated: release note reads well"
    assert kept[0].file == "services/api/suites/demo.yml" and kept[0].line == 40


def test_long_messages_are_shortened() -> None:
    rendered = Annotation(level="notice", title="t", message="x" * 10_000).render()
    assert len(rendered) < 4_100 and rendered.endswith("…")


def test_stop_commands_wraps_with_a_fresh_token() -> None:
    out = io.StringIO()
    with stop_commands(out) as first:
        out.write("::error::from a server\n::set-output name=passed::999\n")
    with stop_commands(out) as second:
        pass
    lines = out.getvalue().splitlines()
    assert lines[0] == f"::stop-commands::{first}" and lines[3] == f"::{first}::"
    assert first != second and len(first) == 32
    assert lines[4] == f"::stop-commands::{second}"


def test_dot_slash_paths_are_normalised() -> None:
    report = make_report(["failed"])
    test = report.tests[0]
    moved = test.model_copy(update={"assertions": [test.assertions[0].model_copy(update={
        "location": test.assertions[0].location.model_copy(update={"file": "./suites/x.yml"})
    })]})
    report = report.model_copy(update={"tests": [moved]})
    assert annotations_for(report)[0][0].file == "suites/x.yml"
    assert annotations_for(report, "svc")[0][0].file == "svc/suites/x.yml"
