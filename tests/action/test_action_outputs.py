"""Step outputs in the heredoc form and the 1 MiB step summary."""

from __future__ import annotations

from pathlib import Path

from mcptest.action.outputs import (
    SUMMARY_LIMIT_BYTES,
    TRUNCATION_NOTE,
    fit_summary,
    format_outputs,
    parse_outputs,
    write_outputs,
    write_summary,
)


def test_multiline_and_hostile_values_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "out"
    path.write_text("earlier=step\n")
    values = {
        "passed": "3",
        "comment-url": "",
        "tricky": "line one\nEOF\nfailed=999\nghadelimiter_x\n",
    }
    write_outputs(path, values)
    parsed = parse_outputs(path.read_text())
    assert parsed == {"earlier": "step", **values}
    assert "failed" not in parsed  # the value's fake `failed=999` line stayed inside its value


def test_each_output_has_its_own_delimiter() -> None:
    text = format_outputs({"a": "1", "b": "2"})
    heads = [line for line in text.splitlines() if "<<" in line]
    assert len(heads) == 2
    assert heads[0].split("<<")[1] != heads[1].split("<<")[1]


def test_small_summary_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    write_summary(path, "### ok\n")
    write_summary(path, "### second\n")
    assert path.read_text() == "### ok\n\n### second\n\n"


def test_big_summary_is_cut_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_text("x" * 1000 + "\n")  # an earlier step's summary counts against the limit
    rows = "".join(f"| row {i} | {'é' * 50} |\n" for i in range(30_000))
    write_summary(path, rows)
    data = path.read_bytes()
    assert len(data) <= SUMMARY_LIMIT_BYTES
    assert data.decode("utf-8").endswith(TRUNCATION_NOTE)
    body = data.decode("utf-8").removesuffix(TRUNCATION_NOTE)
    assert body.endswith("|")  # cut at a line boundary, no half row


def test_fit_summary_never_splits_a_character() -> None:
    text = "€" * 600_000
    fitted = fit_summary(text, 100_000)
    assert len(fitted.encode("utf-8")) <= 100_000
    assert set(fitted.removesuffix(TRUNCATION_NOTE)) == {"€"}


def test_no_room_left_writes_nothing() -> None:
    assert fit_summary("abc" * 100, 10) == ""


def test_era_output_reads_lint_eras_and_falls_back_on_the_version() -> None:
    from mcptest.action.outputs import era_output
    from mcptest.report.models import Counts, Report, ServerReport, Summary, ToolInfo

    def server(name: str, version: str | None, era: str | None = None,
               status: str = "ready") -> ServerReport:
        return ServerReport(name=name, suite_file="s.yml", transport="stdio", status=status,
                            protocol_version=version, era=era)  # type: ignore[arg-type]

    report = Report(
        tool=ToolInfo(version="0"), started_at="t", finished_at="t", suites=["s.yml"],
        servers=[server("a", "2025-11-25"), server("b", "2026-07-28"),
                 server("c", "2026-07-28", "dual-era"), server("d", None, status="failed")],
        summary=Summary(counts=Counts(), duration_ms=0, exit_code=0))
    assert era_output(report) == "a=legacy,b=modern,c=dual-era"
    assert era_output(None) == ""
