"""The run's judge pool: `--concurrency` wins, else the suites' `judge:` settings, else 8."""

from __future__ import annotations

import argparse
from pathlib import Path

import anyio
from support.judge_server import JudgeServer, Verdict

from mcptest.grade.judging import make_judging
from mcptest.plan import build_plan
from mcptest.run.runner import Runner, RunState
from mcptest.suite.load import load_suites


def suite(tmp_path: Path, judge_block: str, n: int = 6) -> Path:
    evals = "".join(
        f"  - {{name: e{i}, prompt: p, response: 'answer {i}', rubric: 'Is it an answer?'}}\n"
        for i in range(n))
    path = tmp_path / "s.yml"
    path.write_text(f"judge: {judge_block}\nevals:\n{evals}", encoding="utf-8")
    return path


def args(concurrency: int | None) -> argparse.Namespace:
    return argparse.Namespace(concurrency=concurrency, max_cost=None, no_cache=True,
                              cache_dir=None, require_judge=False)


def peak(tmp_path: Path, judge_block: str, concurrency: int | None) -> tuple[int, int]:
    with JudgeServer() as js:
        js.script("judge-m", Verdict(0.9, latency=0.3))
        env = {**js.gateway_env(), "PATH": "/usr/bin:/bin"}
        plan = build_plan(load_suites([suite(tmp_path, judge_block)], env=env), evals=True)
        judging = make_judging(plan, args(concurrency), env)
        state = RunState()

        async def go() -> None:
            await judging.start()
            await Runner(plan, env=env, llm=judging, state=state).run()

        anyio.run(go)
        assert all(r.status == "passed" for r in state.results.values())
        return judging.engine.options.concurrency, js.peak_in_flight()


def test_suite_concurrency_bounds_the_pool(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, concurrency: 2}", None)
    assert size == 2 and in_flight <= 2


def test_flag_overrides_the_suite(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, concurrency: 2}", 1)
    assert size == 1 and in_flight == 1


def test_default_is_eight_and_per_model_limit_applies(tmp_path: Path) -> None:
    size, in_flight = peak(tmp_path, "{model: judge-m, per_model_concurrency: 3}", None)
    assert size == 8 and in_flight <= 3
