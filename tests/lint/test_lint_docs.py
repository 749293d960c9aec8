"""The suites docs/lint.md shows for the rules of issue 28 are real runs: each is taken from the
page, its `python3` and repository paths made absolute, linted from a scratch folder, and must
print the finding the page quotes (or name it, where the page shortens the line)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO

pytestmark = pytest.mark.slow  # starts real servers

PAGE = (REPO / "docs" / "lint.md").read_text(encoding="utf-8")


def suite_after(heading: str) -> str:
    section = PAGE[PAGE.index(heading):]
    found = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert found is not None, heading
    return found[1]


def lint_as_written(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    for relative in ("examples/server/example_server.py", "tests/lint/stand_in.py"):
        text = text.replace(relative, str(REPO / relative))
    (tmp_path / "suite.yml").write_text(text.replace("python3", sys.executable),
                                        encoding="utf-8")
    done = cli("lint", "suite.yml", cwd=tmp_path)
    return done.returncode, [" ".join(line.split()) for line in done.stdout.splitlines()]


def test_the_era_declaration_fails_on_the_dual_era_example_server(tmp_path: Path) -> None:
    code, out = lint_as_written(tmp_path, suite_after("To hold a server to the era"))
    quoted = re.search(r"```(?:text)?\n(error\s+era-mismatch .*?)\n```", PAGE)
    assert quoted is not None
    assert " ".join(quoted[1].split()) in out
    assert code == 1


def test_the_elicitation_example_finds_the_secret_fields(tmp_path: Path) -> None:
    code, out = lint_as_written(tmp_path, suite_after("### elicitation-secret"))
    (line,) = [ln for ln in out if "elicitation-secret" in ln]
    quoted = PAGE[PAGE.index("### elicitation-secret"):].split("```")[1].removeprefix("text\n")
    assert " ".join(quoted.split()) in line
    assert code == 1
