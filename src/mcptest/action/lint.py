"""The Action's optional lint step (input `lint: true`): `mcptest lint` on the same suites,
its findings and eras merged into the run's report so the summary and the PR comment show them
first (docs/lint.md, docs/action.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.report.models import Report

LINT_JSON = "mcptest-lint.json"
LINT_SARIF = "mcptest-lint.sarif"


def lint_arguments(suites: list[str], output_dir: str, sarif: bool) -> list[str]:
    argv = ["lint", *suites, "--reporter", "json", "--output", str(Path(output_dir) / LINT_JSON)]
    if sarif:
        argv += ["--reporter", "sarif", "--output", str(Path(output_dir) / LINT_SARIF)]
    return argv


def merge_lint(report: Report | None, linted: Report | None) -> Report | None:
    """The run's report with the lint section and each server's era (lint knows it best)."""
    if linted is None:
        return report
    if report is None:
        return linted
    eras = {(s.suite_file, s.name): s.era for s in linted.servers if s.era}
    servers = [s.model_copy(update={"era": eras.get((s.suite_file, s.name), s.era)})
               for s in report.servers]
    return report.model_copy(update={"lint": linted.lint, "servers": servers,
                                     "warnings": [*report.warnings, *linted.warnings]})


def combined_exit(run_code: int, lint_code: int) -> int:
    """The run's code when it failed; else the lint's (1: an error finding, 3: not ready)."""
    return run_code if run_code != 0 else lint_code
