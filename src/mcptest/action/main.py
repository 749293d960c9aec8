"""Entry point of the Action (every main.py here is an entry point).

The Action: inputs → the CLI (`run`, or `merge` of shard reports with `mode: merge`) →
outputs, summary, annotations and the sticky PR comment.

The CLI runs as a child process with its stderr folded into its stdout, and everything it prints
(server and model text included) is copied to the log inside a stop-commands block. The step's
exit code is the CLI's; nothing the Action adds (comment, summary) can turn a pass into a failure.
"""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mcptest.action.baseline import BaselineChoice, resolve_baseline
from mcptest.action.commands import annotations_for, command, log
from mcptest.action.comment import action_marker, compose_body, post_sticky_comment, pr_number
from mcptest.action.groups import write_server_groups
from mcptest.action.inputs import ActionInputs, read_inputs
from mcptest.action.job_summary import (
    fallback_markdown,
    no_report_markdown,
    report_markdown,
    reporter_available,
)
from mcptest.action.lint import LINT_JSON, LINT_SARIF, combined_exit, lint_arguments, merge_lint
from mcptest.action.outputs import era_output, write_outputs, write_summary
from mcptest.action.process import load_report, run_cli
from mcptest.action.pull_files import changed_files_arguments
from mcptest.action.shards import merge_shards, shard_weights_arguments
from mcptest.errors import UsageError
from mcptest.exit_codes import ExitCode
from mcptest.reporters import FORMATS

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcptest.report.models import Report

#: How the child process starts the CLI (no console script needed, same interpreter): as the
#: console script does, so the process is the CLI's (its signals, its collector, its exit).
CLI_BOOT = "import sys; from mcptest.cli.main import main; sys.exit(main())"
DEFAULT_CLI: tuple[str, ...] = (sys.executable, "-c", CLI_BOOT)
EXTENSIONS = {f.name: f.extension for f in FORMATS}
_GLOB_CHARS = set("*?[")


def entrypoint(argv: list[str]) -> int:
    """Arguments mean the plain CLI (local `docker run`); none mean the Action."""
    if argv:
        from mcptest.cli.main import main

        return main(argv)
    return run_action(os.environ, sys.stdout)


def expand_suites(patterns: Sequence[str], workdir: Path) -> list[str]:
    """Globs (with `**`) expanded relative to the working directory, sorted, duplicates once."""
    files: list[str] = []
    for pattern in patterns:
        if _GLOB_CHARS & set(pattern):
            matched = sorted(glob.glob(pattern, root_dir=workdir, recursive=True))
            if not matched:
                raise UsageError(f"input 'suites': {pattern!r} matched no files in {workdir}")
            files += matched
        else:
            files.append(pattern)
    return list(dict.fromkeys(files))


def extra_outputs(inputs: ActionInputs, warn: TextIO) -> list[tuple[str, str]]:
    """(format, path) of each extra reporter the inputs ask for and this version has."""
    extras: list[tuple[str, str]] = []
    for name in inputs.reporters:
        if name in ("json", "sarif"):
            continue
        if not reporter_available(name):
            warn.write(command("warning", f"reporter '{name}' is not available in this "
                                          "version of mcptest; skipped") + "\n")
            continue
        extras.append((name, str(Path(inputs.output_dir) / f"mcptest.{EXTENSIONS[name]}")))
    return extras


def cli_arguments(inputs: ActionInputs, suites: list[str], report_json: str,
                  sarif: str | None, warn: TextIO) -> list[str]:
    """The `mcptest run` command line these inputs ask for."""
    argv = ["run", *suites]
    if reporter_available("pretty"):
        argv += ["--reporter", "pretty"]
    argv += ["--reporter", "json", "--output", report_json]
    if sarif:
        argv += ["--reporter", "sarif", "--output", sarif]
    for name, path in extra_outputs(inputs, warn):
        argv += ["--reporter", name, "--output", path]
    if inputs.max_cost is not None:
        argv += ["--max-cost", repr(inputs.max_cost)]
    if inputs.concurrency is not None:
        argv += ["--concurrency", str(inputs.concurrency)]
    for flag, tags in (("--tag", inputs.tag), ("--skip-tag", inputs.skip_tag)):
        argv += [f"{flag}={tag}" for tag in tags]  # `=`: a tag starting with `-` stays a value
    if inputs.shard:
        argv += ["--shard", inputs.shard]
    if inputs.require_judge:
        argv.append("--require-judge")
    if inputs.distrust_changed_evidence:
        argv.append("--distrust-changed-evidence")
    if inputs.with_evals:
        argv.append("--with-evals")
    if inputs.models:
        argv += ["--models", inputs.models]
    return argv


UNWRITTEN = ("exit 74: a report could not be written (a full disk or an I/O error on the "
             "runner; the step log names it). The summary below is the run's own.")


def _markdown(report: Report | None, exit_code: int, suites: list[str], out: TextIO) -> str:
    """The md reporter's text; a reporter fault costs the rich summary, never the step."""
    if report is None:
        return no_report_markdown(exit_code, suites)
    try:
        text = report_markdown(report)
    except Exception as error:  # any reporter bug must not fail a passing run
        out.write(command("warning", f"the md reporter failed ({type(error).__name__}); "
                                     "using a minimal summary") + "\n")
        text = fallback_markdown(report)
    if exit_code == ExitCode.OUTPUT_NOT_WRITTEN:  # the report's own code is the run's, not 74
        out.write(command("error", UNWRITTEN) + "\n")
        text = f"> [!WARNING]\n> {UNWRITTEN}\n\n{text}"
    return text


def _shown(workdir_input: str, path: str) -> str:
    """A path as later steps (running in the workspace root) should use it."""
    if Path(path).is_absolute() or workdir_input in ("", ".", "./"):
        return path
    return str(Path(workdir_input) / path)


def _tracking_issue(inputs: ActionInputs, env: Mapping[str, str], exit_code: int,
                    markdown: str, out: TextIO) -> str:
    """`report-to: issue`: open, update or close the tracking issue; returns its URL."""
    if "issue" not in inputs.report_to or not env.get("GITHUB_REPOSITORY"):
        return ""
    from mcptest.action.issue import report_to_issue

    server, run_id = env.get("GITHUB_SERVER_URL") or "https://github.com", env.get("GITHUB_RUN_ID")
    result = report_to_issue(
        api_url=env.get("GITHUB_API_URL") or "https://api.github.com", token=inputs.github_token,
        repository=env["GITHUB_REPOSITORY"], suites=inputs.suites, label=inputs.issue_label,
        passed=exit_code == 0, markdown=markdown,
        run_url=f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{run_id}" if run_id else None,
    )
    if result.warning:
        out.write(command("warning", result.warning, title="mcptest: tracking issue") + "\n")
    elif result.action != "none":
        log(out, f"tracking issue {result.action}: {result.url}")
    return (result.url or "") if result.action in ("opened", "updated") else ""


def _run_suites(inputs: ActionInputs, suites: list[str], baseline: BaselineChoice,
                workdir: Path, report_json: str, sarif: str | None, cli: Sequence[str],
                env: Mapping[str, str], out: TextIO) -> tuple[int, Report | None, str]:
    """`mode: run`: the suites through `mcptest run` (and `mcptest lint` with `lint: true`);
    returns the exit code, the report and the lint SARIF path shown to later steps."""
    argv = cli_arguments(inputs, suites, report_json, sarif, out) + baseline.arguments(
        inputs.fail_on)
    argv += shard_weights_arguments(inputs.shard_weights, workdir, out)
    argv += changed_files_arguments(env, inputs.github_token, inputs.distrust_changed_evidence,
                                    workdir, inputs.output_dir, out)
    log(out, *([f"mcptest: {baseline.note}"] if baseline.note else []),
        f"mcptest {' '.join(argv)}")
    exit_code = run_cli(cli, argv, workdir, env, out)
    report = load_report(workdir / report_json, out)
    lint_sarif = ""
    if inputs.lint:
        lint_argv = lint_arguments(suites, inputs.output_dir, sarif is not None)
        for stale in (LINT_JSON, LINT_SARIF):
            (workdir / inputs.output_dir / stale).unlink(missing_ok=True)
        log(out, f"mcptest {' '.join(lint_argv)}")
        exit_code = combined_exit(exit_code, run_cli(cli, lint_argv, workdir, env, out))
        report = merge_lint(report, load_report(workdir / inputs.output_dir / LINT_JSON, out))
        if (workdir / inputs.output_dir / LINT_SARIF).is_file():
            lint_sarif = _shown(inputs.working_directory,
                                str(Path(inputs.output_dir) / LINT_SARIF))
    return exit_code, report, lint_sarif


def run_action(env: Mapping[str, str], out: TextIO, cli: Sequence[str] = DEFAULT_CLI,
               workspace: Path | None = None) -> int:
    """The whole Action; returns the step's exit code (the CLI's, or 2 for bad inputs).

    `workspace` is where relative paths start (the process's working directory by default,
    which GitHub sets to the mounted workspace).
    """
    outputs_file = env.get("GITHUB_OUTPUT")
    try:
        inputs = read_inputs(env)
        workdir = (workspace or Path.cwd()) / inputs.working_directory
        if not workdir.is_dir():
            raise UsageError(f"input 'working-directory': {inputs.working_directory!r} "
                             "is not a directory")
        suites = expand_suites(inputs.suites, workdir) if inputs.mode == "run" else []
        baseline = resolve_baseline(inputs.baseline, inputs.baseline_artifact, env, workdir,
                                    inputs.output_dir, inputs.github_token)
    except UsageError as error:
        out.write(command("error", str(error), title="mcptest: invalid input") + "\n")
        if outputs_file:
            write_outputs(outputs_file, {"exit-code": str(int(ExitCode.USAGE_ERROR))})
        return int(ExitCode.USAGE_ERROR)

    (workdir / inputs.output_dir).mkdir(parents=True, exist_ok=True)
    report_json = str(Path(inputs.output_dir) / "mcptest.json")
    sarif = inputs.sarif if inputs.sarif and reporter_available("sarif") else None
    if inputs.sarif and sarif is None:
        out.write(command("warning", "the sarif reporter is not available in this version of "
                                     "mcptest; no SARIF file written") + "\n")
    for stale in (report_json, sarif):  # a run that ends early must not leave last run's files
        if stale:
            (workdir / stale).unlink(missing_ok=True)
    failure: str | None = None
    lint_sarif = ""
    if inputs.mode == "merge":
        exit_code, report, failure = merge_shards(
            inputs.shard_reports, workdir, report_json,
            [("sarif", sarif)] if sarif else [], extra_outputs(inputs, out),
            lambda argv, keep=None: run_cli(cli, argv, workdir, env, out, keep), out)
    else:
        exit_code, report, lint_sarif = _run_suites(inputs, suites, baseline, workdir,
                                                    report_json, sarif, cli, env, out)

    markdown = baseline.annotate(failure or _markdown(report, exit_code, inputs.suites, out))
    if summary_file := env.get("GITHUB_STEP_SUMMARY"):
        try:
            write_summary(summary_file, markdown)
        except OSError as error:
            out.write(command("warning", f"could not write the job summary: {error}") + "\n")

    if report is not None:
        write_server_groups(report, out)
        kept, left = annotations_for(report, inputs.working_directory)
        for annotation in kept:
            out.write(annotation.render() + "\n")
        if left:
            log(out, *(f"{count} more {level}-level result(s) not annotated (GitHub shows 10 "
                       "per level); see the summary." for level, count in left.items()))

    comment_url = ""
    number = pr_number(env.get("GITHUB_EVENT_PATH"))
    if inputs.wants_comment and number is not None and env.get("GITHUB_REPOSITORY"):
        result = post_sticky_comment(
            api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
            token=inputs.github_token,
            repository=env["GITHUB_REPOSITORY"],
            number=number,
            body=compose_body(markdown, action_marker(inputs.suites, inputs.shard)),
            mode="recreate" if inputs.comment_mode == "recreate" else "update",
        )
        if result.warning:
            out.write(command("warning", result.warning, title="mcptest: PR comment") + "\n")
        else:
            log(out, f"PR comment {result.action}: {result.url}")
        comment_url = result.url or ""

    issue_url = _tracking_issue(inputs, env, exit_code, markdown, out)

    if outputs_file:
        counts = report.summary.counts if report is not None else None
        sarif_written = sarif is not None and (workdir / sarif).is_file()
        write_outputs(outputs_file, {
            "passed": str(counts.passed if counts else 0),
            "failed": str(counts.failed + counts.error if counts else 0),
            "skipped": str(counts.skipped + counts.not_yet_available if counts else 0),
            "deferred": str(counts.deferred if counts else 0),
            "cost": f"{report.summary.cost_usd:.6f}" if report is not None else "0",
            "exit-code": str(exit_code),
            "sarif-file": (_shown(inputs.working_directory, sarif)
                           if sarif_written and sarif is not None else ""),
            "report-json": (_shown(inputs.working_directory, report_json)
                            if report is not None else ""),
            "comment-url": comment_url,
            "era": era_output(report),
            "lint-sarif-file": lint_sarif,
            "issue-url": issue_url,
        })
    return exit_code
