"""`early_stop: true` on an eval's panel or jury (docs/evals.md, "Early stop"): the gradings not
asked are never sent, and the verdict is always the full panel's. Each case runs the eval
pipeline against the loopback judge; `gpt-…` members reach it (an OpenAI key and base URL in the
environment), `claude-…` members have no key and are deferred."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from evals.conftest import row, run_suite
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.errors import SuiteErrors
from mcptest.suite.load import load_suites

STEPS = {"perfect": Verdict(score=1.0), "pass": Verdict(score=0.9), "fail": Verdict(score=0.1), "near": Verdict(score=0.75),
         "short": Verdict(score=0.6), "abstain": Verdict(score=None, abstain=True),
         "error": Fault.server_error(500)}


@pytest.fixture(scope="module")
def server() -> Any:
    with JudgeServer() as js:
        yield js


def env(js: JudgeServer) -> dict[str, str]:
    return {"OPENAI_API_KEY": "sk-test-openai", "OPENAI_BASE_URL": js.base_url,
            "PATH": "/usr/bin:/bin"}


def member(js: JudgeServer, name: str, answer: str) -> str:
    """A panel member that answers `answer` (deferred: a provider without a key)."""
    if answer == "deferred":
        return f"claude-{name}"
    js.script(f"gpt-{name}", STEPS[answer])
    return f"gpt-{name}"


def suite(folder: Path, judge: dict[str, Any], name: str = "answer",
          rubric: Any = "Names the release.") -> Path:
    doc = {"evals": [{"name": name, "prompt": "What was deployed?",
                      "response": "Deployed billing-api v2.1.0.", "rubric": rubric,
                      "judge": judge}]}
    path = folder / f"{uuid.uuid4().hex[:8]}.yml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def test_two_agreeing_members_settle_a_majority_of_three(
        tmp_path: Path, server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", "pass") for c in "abc"]
    r = row(run_suite(suite(tmp_path, {"panel": panel, "aggregate": "majority",
                                       "early_stop": True}), env(server)), "answer")
    assert r.status == "passed", r.message
    assert [server.count(m) for m in panel] == [1, 1, 0]
    assert "early stop: settled by 2 of 3 panel members, 1 call(s) saved" in (r.message or "")
    assert r.judge is not None and r.judge.jury is not None
    assert (r.judge.jury.jurors_asked, r.judge.jury.calls_saved) == (2, 1)
    assert [v.model for v in r.judge.votes] == panel[:2]


def test_a_split_first_wave_asks_the_third_member(tmp_path: Path, server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", a) for c, a in zip("abc", ("pass", "fail", "fail"),
                                                               strict=True)]
    r = row(run_suite(suite(tmp_path, {"panel": panel, "aggregate": "majority",
                                       "early_stop": True}), env(server)), "answer")
    assert r.status == "failed" and [server.count(m) for m in panel] == [1, 1, 1]
    assert "early stop" not in (r.message or "")
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.jurors_asked is None and r.judge.jury.calls_saved == 0


def test_criteria_count_every_call_a_member_not_asked_would_send(
        tmp_path: Path, server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", "pass") for c in "abc"]
    rubric = {"criteria": [{"name": "release", "description": "Names the release."},
                           {"name": "service", "description": "Names the service."}]}
    r = row(run_suite(suite(tmp_path, {"panel": panel, "aggregate": "majority",
                                       "early_stop": True}, rubric=rubric), env(server)),
            "answer")
    assert r.status == "passed" and [server.count(m) for m in panel] == [2, 2, 0]
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.calls_saved == 2


@pytest.mark.parametrize(("judge", "message"), [
    ({"model": "gpt-4o", "early_stop": True},
     "`early_stop` needs a `panel` or a `jury`"),
    ({"panel": ["gpt-4o", "gpt-4.1"], "verdict_kind": "numeric", "aggregate": "mean",
      "early_stop": True}, "`early_stop` works with the quorum rule only"),
])
def test_early_stop_where_it_means_nothing_is_a_load_error_at_the_key(
        tmp_path: Path, judge: dict[str, Any], message: str) -> None:
    with pytest.raises(SuiteErrors) as e:
        load_suites([suite(tmp_path, judge)], env={})
    text = str(e.value)
    assert "evals[0].judge.early_stop" in text and message in text, text


answers = st.sampled_from(["perfect", "pass", "pass", "fail", "fail", "near", "short", "abstain", "error",
                           "deferred"])


@pytest.mark.slow  # 60 pairs of eval runs against the loopback judge
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(members=st.lists(answers, min_size=2, max_size=5),
       aggregate=st.sampled_from(["majority", "mean", "median"]),
       tie_break=st.sampled_from(["fail", "pass"]), strict=st.booleans(),
       require_judge=st.booleans())
# two passes settle a tie-passing majority of five against the two not asked, but not against
# those two and the keyless one together (the full panel is deferred)
@example(members=["pass", "pass", "deferred", "fail", "fail"], aggregate="majority",
         tie_break="pass", strict=False, require_judge=False)
# a keyless third member, never reached: `--require-judge` must still fail the eval
@example(members=["pass", "pass", "deferred"], aggregate="majority", tie_break="fail",
         strict=False, require_judge=True)
# three perfect scores settle a mean against one more member only if it cannot fail the gate
@example(members=["perfect", "perfect", "perfect", "pass"], aggregate="mean",
         tie_break="fail", strict=True, require_judge=False)
def test_early_stop_never_changes_the_verdict(
        tmp_path: Path, server: JudgeServer, members: list[str], aggregate: str,
        tie_break: str, strict: bool, require_judge: bool) -> None:
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"p{i}-{tag}", a) for i, a in enumerate(members)]
    judge = {"panel": panel, "aggregate": aggregate, "tie_break": tie_break}
    rubric = {"criteria": [{"name": "release", "description": "Names the release."}],
              "strict": True} if strict else "Names the release."
    before = server.count()
    full = row(run_suite(suite(tmp_path, judge, rubric=rubric), env(server),
                         require_judge=require_judge), "answer")
    full_calls = server.count() - before
    early = row(run_suite(suite(tmp_path, {**judge, "early_stop": True}, rubric=rubric),
                          env(server), require_judge=require_judge), "answer")
    early_calls = server.count() - before - full_calls
    assert early.status == full.status, (full.message, early.message)
    assert early_calls <= full_calls
    jury = early.judge.jury if early.judge is not None else None
    if jury is not None and jury.jurors_asked is not None:
        keyless = members.count("deferred")
        assert jury.calls_saved <= full_calls - early_calls + keyless


def test_explain_says_the_panel_is_asked_in_waves_and_counts_an_upper_bound(
        tmp_path: Path) -> None:
    import subprocess
    import sys

    panel = ["gpt-4o", "gpt-4.1", "gpt-4o-mini"]
    path = suite(tmp_path, {"panel": panel, "aggregate": "majority", "early_stop": True})
    r = subprocess.run([sys.executable, "-m", "mcptest", "eval", "--explain", "--config", path],
                       capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-openai"})
    assert r.returncode == 0, r.stderr
    assert "× 3 (panel), early stop: asked in waves" in r.stdout, r.stdout
    assert "judge calls: up to 3 (1 question(s) per grading)" in r.stdout, r.stdout
    assert "total: 1 eval row(s), up to 3 judge call(s)" in r.stdout, r.stdout


def test_a_keyless_member_not_reached_is_still_deferred(
        tmp_path: Path, server: JudgeServer) -> None:
    """Two passes settle a majority of three, but the third has no key: asking it costs
    nothing, so it is asked and deferred as in the full panel, and `--require-judge` fails the
    eval either way (it passed the early-stopped one)."""
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", a)
             for c, a in zip("abc", ("pass", "pass", "deferred"), strict=True)]
    judge = {"panel": panel, "aggregate": "majority", "early_stop": True}
    r = row(run_suite(suite(tmp_path, judge), env(server)), "answer")
    assert r.status == "passed", r.message
    assert "early stop" not in (r.message or "") and "1 deferred" in (r.message or "")
    assert r.judge is not None and r.judge.jury is not None
    assert (r.judge.jury.jurors_asked, r.judge.jury.calls_saved) == (None, 0)
    assert [v.deferred for v in r.judge.votes] == [False, False, True]
    strict = row(run_suite(suite(tmp_path, judge), env(server), require_judge=True), "answer")
    assert strict.status == "failed", strict.message
    assert "judge required but unavailable" in (strict.message or "")


def test_a_budget_stop_is_not_called_an_early_stop(tmp_path: Path, server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    panel = [f"gpt-{c}-{tag}" for c in "abc"]
    for m in panel:
        server.script(m, Verdict(score=0.9, completion_tokens=1000))
    doc = {"judge": {"pricing": {m: {"input": 0, "output": 10} for m in panel}},
           "evals": [{"name": "answer", "prompt": "What was deployed?",
                      "response": "Deployed billing-api v2.1.0.", "rubric": "Names it.",
                      "judge": {"panel": panel, "aggregate": "majority", "early_stop": True}}]}
    path = tmp_path / "budget.yml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    r = row(run_suite(path, env(server), max_cost=0.015), "answer")
    assert r.status == "skipped" and (r.message or "").startswith("budget"), r.message
    assert "early stop" not in (r.message or "")


def test_gradings_that_send_nothing_save_nothing(tmp_path: Path, server: JudgeServer) -> None:
    """A criterion whose `when` does not hold is never asked: no call, none saved."""
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", "pass") for c in "abc"]
    rubric = {"criteria": [{"name": "rollback", "description": "Explains the rollback.",
                            "when": {"contains": "rollback"}}]}
    r = row(run_suite(suite(tmp_path, {"panel": panel, "aggregate": "majority",
                                       "early_stop": True}, rubric=rubric), env(server)),
            "answer")
    assert [server.count(m) for m in panel] == [0, 0, 0]
    assert "early stop: settled by 2 of 3 panel members" in (r.message or "")
    assert "call(s) saved" not in (r.message or "")
    assert r.judge is not None
    assert r.judge.jury is None or r.judge.jury.calls_saved == 0


def test_a_mean_panel_that_a_pass_cannot_settle_is_asked_at_once() -> None:
    """Waves are sized so that a wave that agrees, either way, is the last: a mean panel of
    three at threshold 0.7 cannot be settled by two passes (0.67 if the third says 0), so all
    three are asked together instead of one at a time; a majority of three asks two first."""
    from mcptest.evals.rubric import ResolvedRubric
    from mcptest.evals.settle import next_sample_wave
    from mcptest.suite.models import EvalJudge

    rubric = ResolvedRubric(text="r", body=None, threshold=0.7, strict=False, source="inline")
    mean = EvalJudge(panel=["a", "b", "c"], aggregate="mean")
    majority = EvalJudge(panel=["a", "b", "c"], aggregate="majority")
    assert next_sample_wave("panel", [], 3, rubric, mean, 0.5) == 3
    assert next_sample_wave("panel", [], 3, rubric, majority, 0.5) == 2
    assert next_sample_wave("panel", [], 2, rubric, EvalJudge(panel=["a", "b"], aggregate="majority"),
                     0.5) == 2


@pytest.mark.parametrize(("judge", "extra", "where", "message"), [
    ({"panel": [], "early_stop": True}, {}, "judge.panel", "must not be empty"),
    ({"model": "gpt-4o", "jury": {"size": 1}, "early_stop": True}, {}, "judge.early_stop",
     "a single grading has nothing to stop"),
    ({"panel": ["gpt-4o"], "early_stop": True}, {}, "judge.early_stop",
     "a single grading has nothing to stop"),
    ({"panel": ["gpt-4o", "gpt-4.1"], "early_stop": True}, {"matrix": {"models": ["gpt-4o"]}},
     "matrix", "has nothing to stop"),
])
def test_early_stop_that_would_do_nothing_is_one_load_error_at_its_key(
        tmp_path: Path, judge: dict[str, Any], extra: dict[str, Any], where: str,
        message: str) -> None:
    path = suite(tmp_path, judge)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["evals"][0].update(extra)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(SuiteErrors) as e:
        load_suites([path], env={})
    text = str(e.value)
    assert f"evals[0].{where}" in text and message in text, text
    assert len(e.value.errors) == 1, text


def test_cache_hits_are_not_counted_as_calls_saved(tmp_path: Path, server: JudgeServer) -> None:
    """A full panel run fills the cache; the early-stopped rerun sends nothing and must not
    claim the third member's call as saved (it would have been a cache hit too)."""
    tag = uuid.uuid4().hex[:8]
    panel = [member(server, f"{c}-{tag}", "pass") for c in "abc"]
    judge = {"panel": panel, "aggregate": "majority"}
    cache = tmp_path / "cache"
    run_suite(suite(tmp_path, judge), env(server), cache_dir=cache)
    before = server.count()
    r = row(run_suite(suite(tmp_path, {**judge, "early_stop": True}), env(server),
                      cache_dir=cache), "answer")
    assert server.count() == before and r.status == "passed"
    assert "early stop: settled by 2 of 3 panel members" in (r.message or "")
    assert "call(s) saved" not in (r.message or "")
    assert r.judge is not None and r.judge.jury is not None and r.judge.jury.calls_saved == 0


def test_a_keyless_member_is_asked_first_and_holds_no_seat_in_a_wave(tmp_path: Path) -> None:
    """`[keyless, a, b]`, majority: the keyless member is asked up front (free, deferred), and
    `a` and `b` go out together rather than one wave each; the votes keep the written order."""
    tag = uuid.uuid4().hex[:8]
    with JudgeServer() as js:
        panel = [f"claude-{tag}"] + [f"gpt-{c}-{tag}" for c in "ab"]
        for m in panel[1:]:
            js.script(m, Verdict(score=0.9, latency=0.3))
        r = row(run_suite(suite(tmp_path, {"panel": panel, "aggregate": "majority",
                                           "early_stop": True}), env(js)), "answer")
        assert r.status == "passed", r.message
        assert js.peak_in_flight() == 2
        assert r.judge is not None and [v.model for v in r.judge.votes] == panel
