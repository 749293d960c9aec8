"""The grading core's seams, probed as a user meets them (docs/architecture.md): judged matchers
nested in `all`/`any`, custom judges under `--max-cost` and an internal error's exit code
(the one table of matcher kinds: tests/suite/test_matcher_table.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli_inproc import cli
from support.cli_run import HEAD as SUITE_HEAD
from support.judge_server import JudgeServer, Verdict

from mcptest.errors import BudgetRefused
from mcptest.exit_codes import ExitCode
from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.suite.models import JudgeDefaults, Pricing

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

HEAD = SUITE_HEAD + "tools:\n"


def test_a_judge_nested_in_all_or_any_is_a_positioned_load_error(tmp_path: Path) -> None:
    path = tmp_path / "nested.yml"
    path.write_text(HEAD + """  - name: polite greeting
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher:
          all:
            - contains: Ada
            - llm-judge: {rubric: "Is it polite?"}
      - target: result.content[0].text
        matcher:
          any:
            - {exact: nope}
            - llm-jury: {rubric: "Polite?", jurors: [{model: a}, {model: b}]}
""", encoding="utf-8")
    for command in ("validate", "run"):
        out = cli(command, path)
        assert out.returncode == ExitCode.USAGE_ERROR, out.stderr
        assert "Traceback" not in out.stderr
        lines = [x.removeprefix("error: ") for x in out.stderr.strip().splitlines()]
        why = ("nested inside `all` or `any`: give it its own entry in `expect` (assertions of "
               "a test must all pass, and judges are sent only when the deterministic ones did)")
        assert lines == [
            f"{path}:14:15: tools[0].expect[0].matcher.all[1]: `llm-judge` cannot be "
            + why,
            f"{path}:19:15: tools[0].expect[1].matcher.any[1]: `llm-jury` cannot be "
            + why,
        ], lines


def _greetings(tmp_path: Path, *names: str) -> Path:
    """A suite of one `greet` test per name, each expecting the name back."""
    path = tmp_path / "s.yml"
    path.write_text(HEAD + "".join(f"""  - name: greet {n}
    server: ex
    tool: greet
    args: {{name: {n}}}
    expect: [{{target: "result.content[0].text", matcher: {{contains: {n}}}}}]
""" for n in names), encoding="utf-8")
    return path


def test_an_internal_error_exits_70_and_the_report_says_70(tmp_path: Path) -> None:
    path = _greetings(tmp_path, "Ada", "Bob", "Cy")
    out_json = tmp_path / "out" / "run.json"
    junit = tmp_path / "out" / "junit.xml"
    run = cli("run", path, "--reporter", "json", "--output", out_json,
                  "--reporter", "junit", "--output", junit,
                  env={"MCPTEST_INJECT_FAULT": "1"})
    assert run.returncode == ExitCode.INTERNAL_ERROR == 70, run.stderr
    assert "internal error: InjectedFault" in run.stderr and "Traceback" not in run.stderr
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["summary"]["exit_code"] == 70
    assert report["summary"]["internal_error"].startswith("InjectedFault")
    assert report["summary"]["interrupted"] is None
    assert len(report["tests"]) == 3 and junit.is_file()
    # the same suite without the fault: exit 0, and nothing of the fault in the report
    clean = cli("run", path, "--reporter", "json", "--output", out_json)
    assert clean.returncode == 0, clean.stderr
    assert json.loads(out_json.read_text(encoding="utf-8"))["summary"]["internal_error"] is None


def test_an_internal_error_while_repeating_still_reports_the_first_repetition(
        tmp_path: Path) -> None:
    """A bug of ours after the first repetition (here: merging them) is exit 70, never a
    verdict, and the first repetition's rows are still written, in every format asked."""
    path = _greetings(tmp_path, "Ada", "Bob")
    out_json, junit = tmp_path / "out" / "run.json", tmp_path / "out" / "junit.xml"
    run = cli("run", path, "--repeat", "2", "--reporter", "json", "--output", out_json,
              "--reporter", "junit", "--output", junit, env={"MCPTEST_INJECT_FAULT": "merge"})
    assert run.returncode == ExitCode.INTERNAL_ERROR, run.stderr
    assert "internal error: repeating the run: InjectedFault" in run.stderr
    assert "Traceback" not in run.stderr
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["summary"]["exit_code"] == 70
    assert report["summary"]["internal_error"].startswith("repeating the run: InjectedFault")
    assert [t["status"] for t in report["tests"]] == ["passed", "passed"]
    assert junit.is_file()
    clean = cli("run", path, "--repeat", "2", "--reporter", "json", "--output", out_json)
    assert clean.returncode == 0, clean.stderr
    assert json.loads(out_json.read_text(encoding="utf-8"))["summary"]["internal_error"] is None


def test_custom_judges_are_refused_before_they_run_when_their_cost_cannot_fit(
        tmp_path: Path) -> None:
    """The probe of the issue: two custom judges of $1.00 each under a $0.50 cap. Neither runs
    (its marker file is never written), both report `budget`, nothing is spent, exit 5."""
    (tmp_path / "paid.py").write_text(
        "import pathlib\n"
        "def judge(ctx):\n"
        "    pathlib.Path(ctx['test'] + '.ran').write_text('x')\n"
        "    return {'verdict': 'pass', 'cost_usd': 1.0}\n", encoding="utf-8")
    path = tmp_path / "s.yml"
    path.write_text(HEAD + "".join(f"""  - name: paid{k}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{custom-judge: {{python: "paid:judge", max_cost_usd: 1.0}}}}
""" for k in (1, 2)), encoding="utf-8")
    out_json = tmp_path / "run.json"
    run = cli("run", path, "--max-cost", "0.5", "--reporter", "json", "--output", out_json,
                  cwd=tmp_path)
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert run.returncode == ExitCode.POLICY_STOP == report["summary"]["exit_code"], run.stderr
    assert report["summary"]["cost_usd"] == 0.0 and report["summary"]["budget_stopped"]
    for t in report["tests"]:
        a = t["assertions"][0]
        assert a["status"] == "skipped" and a["message"].startswith("budget: "), a
        assert t["gap"] == "budget"
    assert not list(tmp_path.glob("*.ran"))


def test_a_custom_judge_reporting_more_than_it_declared_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "sly.py").write_text(
        "def judge(ctx):\n    return {'verdict': 'pass', 'cost_usd': 0.2}\n", encoding="utf-8")
    path = tmp_path / "s.yml"
    path.write_text(HEAD + """  - name: sly
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {custom-judge: {python: "sly:judge", max_cost_usd: 0.01}}
""", encoding="utf-8")
    out_json = tmp_path / "run.json"
    run = cli("run", path, "--max-cost", "0.5", "--reporter", "json", "--output", out_json,
                  cwd=tmp_path)
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert run.returncode == ExitCode.TESTS_FAILED, run.stderr
    a = report["tests"][0]["assertions"][0]
    assert a["status"] == "error" and "declared max_cost_usd" in a["message"]
    assert report["summary"]["cost_usd"] == 0.2  # it was spent: the report says so


def test_a_custom_judge_without_a_declared_cost_runs_one_at_a_time_under_a_cap(
        tmp_path: Path) -> None:
    """Issue 35: a judge reporting $0.20 a call with no declared worst case, at the default
    concurrency of 8 under a $0.50 cap, spent $1.20. It now runs one call at a time, reserved
    at the most it reported: the first ($0 known) and the second ($0.20 reserved) fit, $0.40
    in all; the third cannot and is never run. Its reports are not errors: it declared none."""
    (tmp_path / "sly.py").write_text(
        "import pathlib\n"
        "def judge(ctx):\n"
        "    pathlib.Path(ctx['test'] + '.ran').write_text('x')\n"
        "    return {'verdict': 'pass', 'cost_usd': 0.2}\n", encoding="utf-8")
    path = tmp_path / "s.yml"
    path.write_text(HEAD + "".join(f"""  - name: sly{k}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{custom-judge: {{python: "sly:judge"}}}}
""" for k in (1, 2, 3)), encoding="utf-8")
    out_json = tmp_path / "run.json"
    run = cli("run", path, "--max-cost", "0.5", "--reporter", "json",
                  "--output", out_json, cwd=tmp_path)
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert run.returncode == ExitCode.POLICY_STOP, run.stderr
    assert report["summary"]["cost_usd"] == pytest.approx(0.4)  # not 1.2: under the cap
    statuses = sorted(t["assertions"][0]["status"] for t in report["tests"])
    assert statuses == ["passed", "passed", "skipped"], statuses
    skipped = [t for t in report["tests"] if t["assertions"][0]["status"] == "skipped"]
    assert skipped[0]["assertions"][0]["message"].startswith("budget: ")
    assert len(list(tmp_path.glob("*.ran"))) == 2


def test_repetitions_spend_from_the_runs_one_ledger(tmp_path: Path) -> None:
    """`--repeat 3` of a test whose undeclared custom judge reports $0.20, under $0.50: each
    repetition used to get what the earlier ones left and to forget what the judge reported,
    so the third fitted under the $0.10 left by reserving $0 and spent $0.60. One ledger for
    the run: the third is reserved at $0.20, cannot fit, and never runs."""
    (tmp_path / "sly.py").write_text(
        "import pathlib\n"
        "def judge(ctx):\n"
        "    with open('ran.txt', 'a') as f: f.write('x')\n"
        "    return {'verdict': 'pass', 'cost_usd': 0.2}\n", encoding="utf-8")
    path = tmp_path / "s.yml"
    path.write_text(HEAD + """  - name: sly
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {custom-judge: {python: "sly:judge"}}
""", encoding="utf-8")
    out_json = tmp_path / "run.json"
    cli("run", path, "--max-cost", "0.5", "--repeat", "3", "--reporter", "json",
            "--output", out_json, cwd=tmp_path)
    summary = json.loads(out_json.read_text(encoding="utf-8"))["summary"]
    assert summary["cost_usd"] == pytest.approx(0.4) and summary["budget_stopped"]
    assert summary["max_cost_usd"] == 0.5
    assert (tmp_path / "ran.txt").read_text() == "xx"


@pytest.fixture(scope="module")
def shared_server() -> Iterator[JudgeServer]:
    with JudgeServer() as js:
        yield js


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cap=st.floats(0.0, 0.05),
       customs=st.lists(st.tuples(st.floats(0.0, 0.02), st.floats(0.0, 1.0), st.floats(0, 0.03)),
                        min_size=8, max_size=8),
       latencies=st.lists(st.floats(0.0, 0.03), min_size=8, max_size=8))
def test_sixteen_concurrent_custom_and_llm_judges_never_cross_the_cap(
        shared_server: JudgeServer, cap: float, customs: list[tuple[float, float, float]],
        latencies: list[float]) -> None:
    """8 LLM judges and 8 custom judges (declared cost, a share of it reported, a run time) at
    once under one cap: spending never crosses it, and every refused judge never ran."""
    js = shared_server
    model = f"mixed-{uuid.uuid4().hex[:8]}"
    for i, latency in enumerate(latencies):
        js.script(model, Verdict(score=0.5, latency=latency, completion_tokens=40),
                  candidate=f"#c{i}#")
    defaults = JudgeDefaults(max_tokens=64, pricing={model: Pricing(input=2.0, output=8.0)})
    engine = JudgeEngine(JudgeOptions(concurrency=16, max_cost=cap, env=js.gateway_env(),
                                      defaults=defaults))
    ran: list[float] = []
    refused: list[int] = []

    async def custom(k: int, declared: float, share: float, seconds: float) -> None:
        async def judge() -> float:
            await anyio.sleep(seconds)
            ran.append(declared * share)
            return declared * share

        try:
            await engine.client.metered(f"custom{k}", declared, judge, lambda cost: cost)
        except BudgetRefused:
            refused.append(k)

    async def main() -> list[JudgeOutcome]:
        outcomes: list[JudgeOutcome] = []

        async def llm(i: int) -> None:
            outcomes.append(await engine.judge(JudgeRequest(
                rubric="Fine?", candidate=f"#c{i}#", model=model)))

        async with anyio.create_task_group() as tg:
            for i in range(8):
                tg.start_soon(llm, i)
                tg.start_soon(custom, i, *customs[i])
        return outcomes

    outcomes = anyio.run(main)
    prompt, completion = js.usage(model)
    server_cost = prompt * 2.0 / 1e6 + completion * 8.0 / 1e6
    stats = engine.stats()
    assert stats.spent_usd <= cap + 1e-12
    assert stats.spent_usd == pytest.approx(server_cost + sum(ran), abs=1e-12)
    assert stats.overruns == 0 and stats.reserved_usd == pytest.approx(0, abs=1e-12)
    assert len(ran) + len(refused) == 8
    unsent = [o for o in outcomes if o.status != "verdict"]
    assert all(o.status == "budget_skipped" and o.requests_sent == 0 for o in unsent)


@pytest.mark.parametrize("cap", ["nan", "inf", "1e309", "-1"])
def test_a_cap_that_is_not_a_finite_amount_is_a_usage_error(tmp_path: Path, cap: str) -> None:
    path = tmp_path / "s.yml"
    path.write_text("tools: []\n", encoding="utf-8")
    out = cli("run", path, "--max-cost", cap)
    assert out.returncode == ExitCode.USAGE_ERROR, out.stderr
    assert out.stderr.strip().splitlines() == [
        "error: --max-cost must be a finite number of USD, not negative; got "
        + repr(float(cap))]
