"""The run's judge pool: `--concurrency` wins, else the suites' `judge:` settings, else 8."""

from __future__ import annotations

from pathlib import Path

from support.judge_server import JudgeServer, Verdict

from mcptest.api.flow import run_options
from mcptest.api.options import options_of
from mcptest.judging.judging import judge_options
from mcptest.pipeline import run_plan
from mcptest.plan import build_plan
from mcptest.suite.load import load_suites


def suite(tmp_path: Path, judge_block: str, n: int = 6) -> Path:
    evals = "".join(
        f"  - {{name: e{i}, prompt: p, response: 'answer {i}', rubric: 'Is it an answer?'}}\n"
        for i in range(n))
    path = tmp_path / "s.yml"
    path.write_text(f"judge: {judge_block}\nevals:\n{evals}", encoding="utf-8")
    return path


def peak(tmp_path: Path, judge_block: str, concurrency: int | None) -> tuple[int, int]:
    with JudgeServer() as js:
        js.script("judge-m", Verdict(0.9, latency=0.3))
        env = {**js.gateway_env(), "PATH": "/usr/bin:/bin"}
        plan = build_plan(load_suites([suite(tmp_path, judge_block)], env=env), evals=True)
        # the run's judge settings as `mcptest run --concurrency` resolves them
        options = run_options(options_of({"concurrency": concurrency}), env)
        report = run_plan(plan, options).report
        assert report.tests and all(r.status == "passed" for r in report.tests)
        return judge_options(plan, options.judge, ()).concurrency, js.peak_in_flight()


def test_suite_concurrency_bounds_the_pool(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, concurrency: 2}", None)
    assert size == 2 and in_flight <= 2


def test_flag_overrides_the_suite(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, concurrency: 2}", 1)
    assert size == 1 and in_flight == 1


def test_default_is_eight_and_per_model_limit_applies(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, per_model_concurrency: 3}", None)
    assert size == 8 and in_flight <= 3
