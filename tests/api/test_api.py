"""The Python entry (docs/python.md): `mcptest.run` / `mcptest.arun` against the example server,
the same report as `mcptest run`, options checked as the CLI's flags, the project's errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from support.cli_run import HEAD, KEYLESS, MIXED, run_json
from support.judge_server import JudgeServer, Verdict

import mcptest
from mcptest.api.options import Options
from mcptest.cli.main import build_parser
from mcptest.report.models import TestResult as Row

ENV = {**KEYLESS, "WHO": "Ada"}


def write(tmp_path: Path, body: str = MIXED) -> Path:
    path = tmp_path / "suite.yml"
    path.write_text(body, encoding="utf-8")
    return path


def statuses(tests: list[Row] | list[dict]) -> dict[str, str]:
    return {t["name"] if isinstance(t, dict) else t.name:
            t["status"] if isinstance(t, dict) else t.status for t in tests}


# ------------------------------------------------------------------------------ quick checks

def test_options_are_the_flags_of_mcptest_run() -> None:
    """Every option is a flag of `mcptest run` with the same default, and every selection,
    judge, repeat and baseline flag is an option: the two cannot drift apart."""
    args = vars(build_parser("run").parse_args(["run"]))
    not_options = {"files", "config", "outputs", "verbose", "quiet", "handler", "command",
                   "watch"}  # --watch: a way of running the command, not a run's option
    assert set(args) - not_options == set(Options.model_fields)
    defaults = Options()
    for name in Options.model_fields:
        default = getattr(defaults, name)
        assert (list(default) if isinstance(default, tuple) else default) == args[name], name


@pytest.mark.parametrize(("flags", "message"), [
    ({"max_cost": -1}, "max_cost must be a finite number of USD, not negative; got -1.0"),
    ({"concurrency": 0}, "concurrency must be at least 1"),
    ({"shard": "3/2"}, "shard must look like i/n with 1 ≤ i ≤ n, got '3/2'"),
    ({"repeat": 0}, "repeat: Input should be greater than or equal to 1"),
    ({"fail_on": "regressed"}, "fail_on='regressed' and max_score_drop need a baseline"),
    ({"max_cots": 1}, "unknown option 'max_cots' (the options are: filter, tag,"),
])
def test_a_bad_option_is_a_usage_error_naming_it(flags: dict, message: str) -> None:
    with pytest.raises(mcptest.UsageError) as e:
        mcptest.run("suite.yml", **flags)
    assert str(e.value).startswith(message)
    with pytest.raises(mcptest.UsageError):  # the model itself raises the same error
        Options(**flags)


def test_a_bad_suite_raises_suite_errors_with_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "tools:\n  - name: x\n    server: ex\n    tool: greet\n"
                                  "    expect: [{target: result, matcher: {exakt: 1}}]\n")
    with pytest.raises(mcptest.SuiteErrors) as e:
        mcptest.run([path], env=ENV)
    assert str(e.value) == (f"{path.as_posix()}:8:41: tools[0].expect[0].matcher.exakt: "
                            "unknown matcher `exakt` (did you mean `exact`?)")


def test_no_suite_and_no_default_file_is_a_usage_error(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(mcptest.UsageError, match="no suite file given"):
        mcptest.run()


def test_an_unreadable_baseline_is_a_report_error(tmp_path: Path) -> None:
    with pytest.raises(mcptest.ReportError, match=r"missing\.json"):
        mcptest.run(write(tmp_path), baseline=tmp_path / "missing.json", env=ENV)


def test_run_inside_a_running_loop_says_to_await_arun() -> None:
    async def inside() -> None:
        mcptest.run("suite.yml")

    with pytest.raises(mcptest.UsageError, match=r"await mcptest\.arun"):
        asyncio.run(inside())


# ------------------------------------------------------------------ runs (the example server)

@pytest.mark.slow
def test_run_returns_the_report_mcptest_run_writes(tmp_path: Path) -> None:
    path = write(tmp_path)
    _, cli = run_json(path, env={"WHO": "Ada"})
    seen: list[str] = []
    report = mcptest.run(path, env=ENV, no_cache=True, progress=lambda t: seen.append(t.name))
    assert isinstance(report, mcptest.Report)
    assert statuses(report.tests) == statuses(cli["tests"]) == {
        "greets": "passed", "adds wrongly": "failed", "reads as a release note": "deferred"}
    assert [t.id for t in report.tests] == [t["id"] for t in cli["tests"]]
    assert report.summary.exit_code == cli["summary"]["exit_code"] == 1
    assert sorted(seen) == ["adds wrongly", "greets", "reads as a release note"]


class Stop(Exception):
    """The caller's own exception."""


@pytest.mark.slow
def test_an_exception_of_the_progress_callback_reaches_the_caller(tmp_path: Path) -> None:
    seen: list[str] = []

    def progress(row: Row) -> None:
        seen.append(row.name)
        raise Stop(f"stop after {row.name}")

    with pytest.raises(Stop, match="stop after") as caught:
        mcptest.run(write(tmp_path), env=ENV, no_cache=True, progress=progress)
    assert caught.value.args[0] == f"stop after {seen[0]}" and len(seen) == 1


@pytest.mark.slow
def test_keywords_select_as_the_flags_do(tmp_path: Path) -> None:
    path = write(tmp_path)
    assert statuses(mcptest.run(path, env=ENV, tag=["smoke"]).tests) == {"greets": "passed"}
    assert statuses(mcptest.run(path, env=ENV, options=Options(filter="re:^a"),
                                ).tests) == {"adds wrongly": "failed"}
    # a keyword wins over the same option in `options`
    assert statuses(mcptest.run(path, env=ENV, options=Options(filter="add"),
                                filter="greet").tests) == {"greets": "passed"}


@pytest.mark.slow
def test_arun_runs_in_the_callers_loop_and_reaches_the_judge(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-m", Verdict(score=0.9))
        env = {**ENV, **js.gateway_env()}

        async def main() -> mcptest.Report:
            return await mcptest.arun([write(tmp_path)], env=env, no_cache=True,
                                      filter="release")

        report = asyncio.run(main())
        assert js.count("judge-m") == 1
    assert statuses(report.tests) == {"reads as a release note": "passed"}
    assert report.summary.judge_calls == 1


@pytest.mark.slow
def test_the_returned_report_is_redacted(tmp_path: Path) -> None:
    """A secret the server echoes back never reaches the caller, as no report file has it."""
    secret = "s3cr3t-value-4f1e9a"
    path = write(tmp_path, MIXED.replace("from_env: WHO", "from_env: MY_API_KEY"))
    report = mcptest.run(path, env={**ENV, "MY_API_KEY": secret}, filter="greet")
    text = json.dumps(report.model_dump(mode="json"))
    assert secret not in text and "[REDACTED]" in text
