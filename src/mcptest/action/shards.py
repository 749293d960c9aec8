"""The Action's CI matrix (docs/action.md, "Shards: a CI matrix with one result").

Shard jobs run `mode: run` with `shard: i/n` (balanced by `shard-weights`, the last merged
report, when it exists); the merge job runs `mode: merge`, which is `mcptest merge` on the shard
reports and `mcptest report` for SARIF and the extra formats. What the Action then does with
the merged report (one comment, summary, outputs, exit code) is what it does after any run.
A merge that fails (a shard missing, reports from different runs) writes no report; its summary
and comment quote the CLI's error, so a missing shard never reads as a pass.
"""

from __future__ import annotations

import glob
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from mcptest.action.commands import command, log
from mcptest.action.job_summary import escape_cell, reporter_available
from mcptest.action.process import load_report
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.report.models import Report

#: Runs the CLI with these arguments (output to the log, and to `keep` when given).
RunCli = Callable[..., int]


def shard_weights_arguments(path: str, workdir: Path, out: TextIO) -> list[str]:
    """`--shard-weights PATH` when the report is there; the first run has none (dealt by count)."""
    if not path:
        return []
    if not (workdir / path).is_file():
        log(out, f"mcptest: no shard weights yet ({path} not found); shards are dealt by count")
        return []
    return ["--shard-weights", path]


def shard_report_files(patterns: list[str], workdir: Path) -> list[str]:
    """The shard reports the patterns name, sorted, each once. A pattern that matches nothing is
    not an error here: `mcptest merge` then reports which shard is missing."""
    files: list[str] = []
    for pattern in patterns:
        if set("*?[") & set(pattern):
            files += sorted(glob.glob(pattern, root_dir=workdir, recursive=True))
        elif (workdir / pattern).is_file():
            files.append(pattern)
    return list(dict.fromkeys(files))


def merge_failed_markdown(exit_code: int, errors: list[str], patterns: list[str]) -> str:
    """The summary and comment of a merge that wrote no report."""
    lines = [f"### ❌ mcptest · the shard reports could not be merged (exit {exit_code})", ""]
    lines += [f"> {escape_cell(e, 1000)}" for e in errors] or ["> see the step log"]
    listed = ", ".join(f"`{escape_cell(p)}`" for p in patterns)
    lines += ["", f"Shard reports: {listed}. A merged run needs every shard's report; the step "
                  "fails until all are there."]
    return "\n".join(lines) + "\n"


def merge_shards(patterns: list[str], workdir: Path, report_json: str,
                 renders: list[tuple[str, str]], extras: list[tuple[str, str]],
                 run: RunCli, out: TextIO) -> tuple[int, Report | None, str | None]:
    """`mcptest merge` into `report_json`, then each (format, path) rendered from it.

    Returns the merged run's exit code, its report, and the markdown to show instead of the
    report's when the merge failed (else None).
    """
    files = shard_report_files(patterns, workdir)
    if not files:
        code = int(ExitCode.USAGE_ERROR)
        error = "no shard report found (did the shard jobs upload them?)"
        out.write(command("error", error, title="mcptest: merge") + "\n")
        return code, None, merge_failed_markdown(code, [error], patterns)
    argv = ["merge", *files, "--output", report_json]
    log(out, f"mcptest {' '.join(argv)}")
    said: list[str] = []
    code = run(argv, said)
    report = load_report(workdir / report_json, out)
    if report is None:
        errors = [line.removeprefix("error: ").removeprefix("merge: ")
                  for line in "".join(said).splitlines() if line.startswith("error: ")]
        for error in errors:
            out.write(command("error", error, title="mcptest: merge") + "\n")
        return code or int(ExitCode.INTERNAL_ERROR), None, merge_failed_markdown(
            code, errors, files)
    shown = [("pretty", "")] if reporter_available("pretty") else []
    for fmt, path in shown + renders + extras:
        argv = ["report", report_json, "--reporter", fmt] + (["--output", path] if path else [])
        log(out, f"mcptest {' '.join(argv)}")
        if run(argv) != 0:
            out.write(command("warning", f"could not write the {fmt} report") + "\n")
    return code, report, None
