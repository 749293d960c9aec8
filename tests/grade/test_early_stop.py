"""`early_stop: true` on juries (docs/jury.md, "Early stop"): fewer calls, the same verdict.

The quorum arithmetic is checked against brute force over every outcome of the jurors not yet
asked; the jury itself runs against the loopback judge server, once with the full jury and once
with early stop, and must reach the same verdict while the server sees the calls saved as
fewer requests.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.grade import decision
from mcptest.grade.aggregate import weighted_quorum
from mcptest.grade.llm_matchers import LlmContext, jury_assertion
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import PlannedAssertion
from mcptest.report.models import AssertionResult, Location
from mcptest.suite.models import Assertion

weights = st.sampled_from([0.5, 1.0, 1.0, 1.0, 2.0])
heads = st.lists(st.tuples(weights, st.booleans()), max_size=4)
quorums = st.sampled_from([0.0, 0.34, 0.5, 0.6, 0.67, 0.75, 1.0])


def settled(h: list[tuple[float, bool]], pending: list[float], quorum: float,
            need: int = 1) -> bool | None:
    """The decision's early-stop check on a quorum jury: the quorum's answer once settled."""
    rule = decision.JuryRule(how="quorum", quorum=quorum, min_decisive=need)
    present = [decision.Ballot(weight=w, passed=ok) for w, ok in h]
    return weighted_quorum(h, quorum).met if decision.settled(present, pending, rule) else None


def next_wave(h: list[tuple[float, bool]], pending: list[float], quorum: float) -> int:
    rule = decision.JuryRule(how="quorum", quorum=quorum)
    return decision.next_wave([decision.Ballot(weight=w, passed=ok) for w, ok in h], pending,
                              rule)


def _full(h: list[tuple[float, bool]], pending: list[float], outcome: tuple[Any, ...],
          quorum: float, need: int) -> bool | None:
    """The quorum after every pending juror answered `outcome` (True/False/None = no verdict);
    None when too few decisive heads (inconclusive)."""
    final = [*h, *((w, o) for w, o in zip(pending, outcome, strict=True) if o is not None)]
    return weighted_quorum(final, quorum).met if len(final) >= need else None


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(h=heads, pending=st.lists(weights, max_size=4), quorum=quorums,
       need=st.integers(1, 3))
def test_settled_means_no_pending_answer_changes_the_quorum(
        h: list[tuple[float, bool]], pending: list[float], quorum: float, need: int) -> None:
    answers = {_full(h, pending, o, quorum, need)
               for o in itertools.product((True, False, None), repeat=len(pending))}
    verdict = settled(h, pending, quorum, need)
    if verdict is not None:
        assert answers == {verdict}
    elif len(h) >= need:
        assert len(answers) > 1  # not settled only when some answers really disagree


@settings(max_examples=200, deadline=None)
@given(h=heads, pending=st.lists(weights, min_size=1, max_size=5), quorum=quorums)
def test_next_wave_is_the_smallest_that_can_settle(
        h: list[tuple[float, bool]], pending: list[float], quorum: float) -> None:
    k = next_wave(h, pending, quorum)
    assert 1 <= k <= len(pending)

    def settles_either_way(n: int) -> bool:
        return all(settled([*h, *((w, vote) for w in pending[:n])], pending[n:], quorum)
                   is not None for vote in (True, False))

    # the smallest wave whose unanimous answer, whichever it is, settles the quorum
    assert all(not settles_either_way(n) for n in range(1, k))
    assert k == len(pending) or settles_either_way(k)


# ------------------------------------------------------------- the jury, against the server

@pytest.fixture(scope="module")
def server() -> Iterator[JudgeServer]:
    with JudgeServer() as js:
        yield js


STEPS = {"pass": Verdict(score=0.9), "fail": Verdict(score=0.1),
         "abstain": Verdict(score=None, abstain=True), "error": Fault.server_error(500)}
answers = st.sampled_from(["pass", "pass", "fail", "fail", "abstain", "error", "deferred"])


def _seat(js: JudgeServer, name: str, answer: str, **extra: Any) -> dict[str, Any]:
    """A juror on the loopback judge, or (`deferred`) one naming a provider with no key."""
    if answer == "deferred":
        return {"model": f"gpt-4o-{name}", **extra}
    js.script(name, STEPS[answer])
    return {"model": name, "base_url": js.base_url, **extra}


def _grade(js: JudgeServer, spec: dict[str, Any], candidate: str,
           require_judge: bool = False) -> AssertionResult:
    engine = JudgeEngine(JudgeOptions(env={}, max_tries=1, retry_base_delay=0,
                                      require_judge=require_judge))
    assertion = Assertion.model_validate({"target": "result", "matcher": {"llm-jury": spec}})
    planned = PlannedAssertion(0, assertion, Location(file="s.yml", line=3))
    return anyio.run(jury_assertion, planned, candidate, LlmContext(), engine)


@pytest.mark.slow  # 80 juries against the loopback judge
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(jurors=st.lists(st.tuples(answers, weights), min_size=2, max_size=5),
       spares=st.lists(answers, max_size=2), quorum=quorums,
       min_jurors=st.sampled_from([None, 1, 2, 3]), repetitions=st.sampled_from([1, 1, 2]),
       require_judge=st.booleans())
# two passes settle a majority; the keyless third, never reached, must still fail it under
# `--require-judge`
@example(jurors=[("pass", 1.0), ("pass", 1.0), ("deferred", 1.0)], spares=[], quorum=0.5,
         min_jurors=None, repetitions=1, require_judge=True)
# two passes settle a majority against the third juror, whose server error (a lost seat) fails
# the full jury under `--require-judge`: asked in full there
@example(jurors=[("pass", 1.0), ("pass", 1.0), ("error", 1.0)], spares=[], quorum=0.5,
         min_jurors=None, repetitions=1, require_judge=True)
def test_early_stop_never_changes_the_verdict(
        server: JudgeServer, jurors: list[tuple[str, float]], spares: list[str],
        quorum: float, min_jurors: int | None, repetitions: int, require_judge: bool) -> None:
    tag = uuid.uuid4().hex[:8]
    spec = {"rubric": "Reads as a deployment note.", "quorum": quorum, "threshold": 0.5,
            "jurors": [_seat(server, f"j{i}-{tag}", a, weight=w)
                       for i, (a, w) in enumerate(jurors)],
            "replacements": [_seat(server, f"s{i}-{tag}", a) for i, a in enumerate(spares)],
            "min_jurors": min_jurors, "repetitions": repetitions}
    before = server.count()
    full = _grade(server, spec, f"full {tag}", require_judge)
    full_calls = server.count() - before
    early = _grade(server, {**spec, "early_stop": True}, f"early {tag}", require_judge)
    early_calls = server.count() - before - full_calls
    assert early.status == full.status, (full.message, early.message)
    assert early_calls <= full_calls
    analytics = early.judge.jury if early.judge is not None else None
    if analytics is not None:
        saved = full_calls - early_calls
        # calls saved are counted on jurors; a spare a skipped juror would have needed is
        # saved too without being counted (a juror without a key is always asked: it is free)
        assert analytics.calls_saved <= saved
        assert analytics.jurors_asked is not None and analytics.jurors_asked <= len(jurors)


def test_an_unreachable_juror_is_not_settled_on_the_jurors_asked(server: JudgeServer) -> None:
    """Five jurors at quorum 0.5: the first wave (three) brings two passes and one juror without
    a key. Two passes settle the quorum against the two not asked, and against the missing one,
    but not against all three at once (2 of 5): the full jury is deferred, and so must the
    early-stopped one be, after asking the last two."""
    tag = uuid.uuid4().hex[:8]
    answers = ["pass", "pass", "deferred", "fail", "fail"]
    spec = {"rubric": "r", "quorum": 0.5,
            "jurors": [_seat(server, f"u{i}-{tag}", a) for i, a in enumerate(answers)]}
    full = _grade(server, spec, f"full {tag}")
    early = _grade(server, {**spec, "early_stop": True}, f"early {tag}")
    assert full.status == "deferred", full.message
    assert early.status == "deferred", early.message
    assert server.count(f"u4-{tag}") == 2  # asked by both


def test_agreeing_first_jurors_settle_a_three_juror_majority(server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    names = [f"a{i}-{tag}" for i in range(3)]
    for name in names:
        server.script(name, Verdict(score=0.9))
    spec = {"rubric": "r", "jurors": [{"model": n, "base_url": server.base_url} for n in names],
            "early_stop": True}
    result = _grade(server, spec, "note")
    assert result.status == "passed"
    assert [server.count(n) for n in names] == [1, 1, 0]
    assert result.judge is not None and result.judge.jury is not None
    assert (result.judge.jury.jurors_asked, result.judge.jury.calls_saved) == (2, 1)
    assert "early stop: settled by 2 of 3 jurors, 1 call(s) saved" in (result.message or "")
    assert [v.model for v in result.judge.votes] == names[:2]


def test_split_first_jurors_ask_the_third(server: JudgeServer) -> None:
    tag = uuid.uuid4().hex[:8]
    names = [f"b{i}-{tag}" for i in range(3)]
    for name, score in zip(names, (0.9, 0.1, 0.2), strict=True):
        server.script(name, Verdict(score=score))
    spec = {"rubric": "r", "jurors": [{"model": n, "base_url": server.base_url} for n in names],
            "early_stop": True, "quorum": 0.6}
    result = _grade(server, spec, "note")
    assert result.status == "failed" and [server.count(n) for n in names] == [1, 1, 1]
    assert result.judge is not None and result.judge.jury is not None
    assert result.judge.jury.calls_saved == 0


def test_a_keyless_spare_keeps_require_judge_honest(server: JudgeServer) -> None:
    """The third juror errors and the spare has no key: the full jury sits a deferred spare and
    `--require-judge` fails it. Two passes settle the quorum, but a juror not asked could fail
    and be replaced by that spare, so under `--require-judge` the jury is asked in full."""
    tag = uuid.uuid4().hex[:8]
    spec = {"rubric": "r", "quorum": 0.5,
            "jurors": [_seat(server, f"k{i}-{tag}", a)
                       for i, a in enumerate(("pass", "pass", "error"))],
            "replacements": [_seat(server, f"ks-{tag}", "deferred")]}
    full = _grade(server, spec, f"full {tag}", require_judge=True)
    early = _grade(server, {**spec, "early_stop": True}, f"early {tag}", require_judge=True)
    assert full.status == early.status == "failed", (full.message, early.message)


def test_a_spare_heavier_than_the_juror_it_may_replace_bounds_the_wave(
        server: JudgeServer) -> None:
    """A (1.0) passes; B (0.5) errors and C (1.0) takes its seat with C's weight and fails:
    0.5 < 0.6, failed. One pass against B's own weight (1/1.5 = 0.67) looked settled."""
    tag = uuid.uuid4().hex[:8]
    spec = {"rubric": "r", "quorum": 0.6,
            "jurors": [_seat(server, f"w0-{tag}", "pass"),
                       _seat(server, f"w1-{tag}", "error", weight=0.5)],
            "replacements": [_seat(server, f"w2-{tag}", "fail")]}
    full = _grade(server, spec, f"full {tag}")
    early = _grade(server, {**spec, "early_stop": True}, f"early {tag}")
    assert full.status == early.status == "failed", (full.message, early.message)


def test_keyless_jurors_are_asked_first_and_hold_no_seat_in_a_wave() -> None:
    """A keyless first juror costs nothing: it is asked up front, and the two reachable jurors
    go out together (both in flight at once) rather than one wave each."""
    tag = uuid.uuid4().hex[:8]
    with JudgeServer() as js:
        jurors = [_seat(js, f"n0-{tag}", "deferred")] + [
            {"model": f"n{i}-{tag}", "base_url": js.base_url} for i in (1, 2)]
        for j in jurors[1:]:
            js.script(j["model"], Verdict(score=0.9, latency=0.3))
        spec = {"rubric": "r", "quorum": 0.5, "jurors": jurors, "early_stop": True}
        result = _grade(js, spec, "note")
        assert result.status == "passed", result.message
        assert js.peak_in_flight() == 2
        assert result.judge is not None
        assert [v.model for v in result.judge.votes] == [j["model"] for j in jurors]


def test_a_single_juror_with_early_stop_is_a_load_error() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="a single juror has nothing to stop"):
        Assertion.model_validate({"target": "result", "matcher": {"llm-jury": {
            "rubric": "r", "jurors": [{"model": "gpt-4o"}], "repetitions": 3,
            "early_stop": True}}})
