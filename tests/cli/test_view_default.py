"""`mcptest view REPORT` without `--output` writes the page beside the report (docs/view.md), not
into whatever folder the command was run from (a new user found `view.html` in the repository's
root, where nothing ignores it)."""

from __future__ import annotations

from pathlib import Path

from reporters.sample import sample_report
from support.cli_inproc import cli


def test_the_page_goes_beside_the_report(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "run.json").write_text(sample_report().model_dump_json(),
                                               encoding="utf-8")
    done = cli("view", "out/run.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = tmp_path / "out" / "run.view.html"
    assert done.stdout == f"mcptest: wrote {Path('out/run.view.html')} " \
                          f"({len(sample_report().tests)} test(s))\n"
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
