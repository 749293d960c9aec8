"""The escalation cascade's guarantee, simulated (docs/cascade.md, "The guarantee, tested").

500 labelled items; a cheap judge and a three-juror jury scripted on the loopback judge server
with known accuracy and confidence (support/cascade_sim.py). Every tier is run on every item once,
as `mcptest calibrate` runs them (the real tier grader, over HTTP, priced): what they answer is
what `tier_outputs` computes from the scripted scores, at the measured cost per verdict. Then 50
seeded splits, each on a fresh pool of 500 items (one pool resplit 50 times made the simulation
as lucky or unlucky as that pool): calibrate on 250 items (the procedure `mcptest calibrate`
uses), apply the thresholds to the other 250, and count how often the cascade's agreement with
the labels reaches the target, and what it cost against the jury alone. One split is also graded
for real, through the run's cascade grader and the record read back by the gate, to show that the
replay is what a run does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import anyio
import pytest
from support.cascade_sim import (
    CHEAP,
    JURORS,
    PRICES,
    THRESHOLD,
    Item,
    items,
    one_split,
    tier_outputs,
)
from support.judge_server import JudgeServer, Verdict

from mcptest.calibrate.cascade import TierOutput
from mcptest.calibrate.cascade_gate import thresholds
from mcptest.calibrate.cascade_measure import build_cascade_record, judge_tiers
from mcptest.calibrate.gate import CalibrationGating
from mcptest.calibrate.labels import Label
from mcptest.calibrate.record import write_record
from mcptest.calibrate.target import Target, select_target
from mcptest.grade.confidence import stands
from mcptest.grade.escalation import grade_cascade
from mcptest.grade.jury_seats import LlmContext
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import build_plan
from mcptest.suite.load import load_suites
from mcptest.suite.models import LlmJudgeMatcher

pytestmark = [pytest.mark.slow,  # 2,400 judge requests over loopback HTTP
              pytest.mark.xdist_group("cascade-simulation")]  # one worker: the module fixture (`outputs`, ~6 s) is built once, not on every worker

TARGET, RISK, SPLITS = 0.9, 0.1, 50


def suite_text() -> str:
    pricing = ", ".join(f"{m}: {{input: {i}, output: {o}}}" for m, (i, o) in PRICES.items())
    jurors = ", ".join(f"{{model: {j}}}" for j in JURORS)
    return f"""
servers:
  s: {{ command: ["python3", "-c", "pass"] }}
judge:
  max_tokens: 200
  pricing: {{ {pricing} }}
tools:
  - name: release note
    server: s
    tool: release_note
    expect:
      - target: result.content[0].text
        matcher:
          llm-judge:
            rubric: Pass if the text is a short deployment note naming service and tag.
            threshold: {THRESHOLD}
            model: {CHEAP}
            calibration: {{ file: cascade.calibration.json }}
            escalate:
              - llm-jury: {{ jurors: [{jurors}], quorum: 0.5 }}
"""


@pytest.fixture(scope="module")
def data() -> list[Item]:
    return items()


@pytest.fixture(scope="module")
def js(data: list[Item]) -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        for item in data:
            for model, score in item.scores.items():
                server.script(model, Verdict(score=score, reason="scripted"),
                              candidate=item.candidate)
        yield server


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Target:
    folder = tmp_path_factory.mktemp("cascade")
    (folder / "mcptest.yml").write_text(suite_text(), encoding="utf-8")
    plan = build_plan(load_suites([folder / "mcptest.yml"], env={}), tools=True, evals=True,
                      agents=False)
    return select_target(plan, None)


def engine(js: JudgeServer) -> JudgeEngine:
    return JudgeEngine(JudgeOptions(env=js.gateway_env(), concurrency=16, retry_base_delay=0.01))


def labels_of(data: list[Item]) -> list[Label]:
    return [Label(id=it.id, candidate=it.candidate, human="pass" if it.human else "fail")
            for it in data]


@pytest.fixture(scope="module")
def outputs(js: JudgeServer, target: Target, data: list[Item]) -> list[list[TierOutput]]:
    """Every tier on every item, once: out[t][i]."""
    return anyio.run(judge_tiers, target, labels_of(data), engine(js))


def replay(out: list[list[TierOutput]], held: list[int], lam: float | None
           ) -> tuple[list[tuple[int, bool]], float]:
    """(deciding tier, verdict) per held-out item, and what the cascade paid for them."""
    cheap, jury = out
    decided, cost = [], 0.0
    for i in held:
        if lam is not None:
            cost += cheap[i].cost_usd
        if stands(cheap[i].confidence, lam):
            decided.append((1, bool(cheap[i].passed)))
        else:
            cost += jury[i].cost_usd
            decided.append((2, bool(jury[i].passed)))
    return decided, cost


def test_the_scripted_judges_are_what_the_simulation_says(
        outputs: list[list[TierOutput]], data: list[Item]) -> None:
    cheap, jury = outputs
    human = [it.human for it in data]
    cheap_agree = sum(o.passed == h for o, h in zip(cheap, human, strict=True)) / len(data)
    jury_agree = sum(o.passed == h for o, h in zip(jury, human, strict=True)) / len(data)
    assert 0.85 < cheap_agree < TARGET < jury_agree  # the cheap judge alone misses the target
    assert all(o.cost_usd > 0 for out in outputs for o in out)
    assert sum(o.cost_usd for o in jury) > 10 * sum(o.cost_usd for o in cheap)
    # what calibrate got over HTTP is what the fresh pools of the splits are computed as
    direct = [tier_outputs(it) for it in data]
    assert [(o.passed, o.confidence) for o in cheap] == [(d[0].passed, d[0].confidence)
                                                        for d in direct]
    assert [(o.passed, o.confidence) for o in jury] == [(d[1].passed, d[1].confidence)
                                                       for d in direct]


def test_fifty_splits(outputs: list[list[TierOutput]]) -> None:
    """The numbers docs/cascade.md ("What it buys") quotes are printed (pytest -rP shows them)."""
    costs = [sum(o.cost_usd for o in out) / len(out) for out in outputs]  # measured over HTTP
    splits = [one_split(100 + seed, TARGET, RISK, costs) for seed in range(SPLITS)]
    agreement = [s.agreement for s in splits]
    kept = sum(a >= TARGET for a in agreement)
    cheap_kept = sum(s.settled_agreed >= TARGET * s.settled for s in splits)
    coverage = [s.settled / 250 for s in splits]
    guaranteed = [s.guaranteed for s in splits]
    cascade_cost, jury_cost = sum(s.cost for s in splits), sum(s.jury_cost for s in splits)
    right = [s.cheap_right for s in splits]
    print(f"{SPLITS} splits, each a fresh pool (the cheap judge right on {min(right):.1%} to "
          f"{max(right):.1%}, mean {sum(right) / SPLITS:.1%}): held-out agreement >= "
          f"{TARGET:.0%} in {kept} (lowest {min(agreement):.1%}, mean "
          f"{sum(agreement) / SPLITS:.1%}); the cheap judge settled {sum(coverage) / SPLITS:.0%} "
          f"(none in {coverage.count(0.0)}) and kept {TARGET:.0%} on them in {cheap_kept}; "
          f"cost ${cascade_cost:.4f} against ${jury_cost:.4f} for the jury alone "
          f"({cascade_cost / jury_cost:.0%}); guaranteed {min(guaranteed):.1%} to "
          f"{max(guaranteed):.1%} (mean {sum(guaranteed) / SPLITS:.1%})")
    assert kept >= (1 - RISK) * SPLITS
    assert cheap_kept >= (1 - RISK) * SPLITS  # the trusted tier, on what it settled
    assert cascade_cost < 0.5 * jury_cost  # the cascade against the jury alone
    assert sum(coverage) / SPLITS > 0.5  # the cheap judge settles most items
    assert sum(right) / SPLITS == pytest.approx(0.8475, abs=0.01)  # as drawn, not one pool's luck


def test_a_run_does_what_the_replay_says(js: JudgeServer, outputs: list[list[TierOutput]],
                                         target: Target, data: list[Item]) -> None:
    """Split 0 graded by the run's cascade grader, thresholds read back from the record."""
    labels = labels_of(data)
    order = list(range(len(data)))
    random.Random(0).shuffle(order)
    cal, held = order[:250], order[250:]
    record = build_cascade_record(target, [labels[i] for i in cal],
                                  [[out[i] for i in cal] for out in outputs], "labels.jsonl",
                                  TARGET, RISK)
    path = target.record_path
    assert path is not None
    write_record(record, path)
    assert target.planned is not None
    th = thresholds(CalibrationGating(require=False), target.test, target.planned)
    assert th.calibrated and th.of(0) == record.cascade.tiers[0].threshold  # type: ignore[union-attr]
    m = target.planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    run = engine(js)
    ctx = LlmContext.of(target.test)
    results: list = [None] * len(held)

    async def grade_all() -> None:
        async def one(k: int) -> None:
            results[k] = await grade_cascade(target.planned, m.llm_judge,  # type: ignore[arg-type]
                                             data[held[k]].candidate, ctx, run, th)

        async with anyio.create_task_group() as tg:
            for k in range(len(held)):
                tg.start_soon(one, k)

    anyio.run(grade_all)
    decided, cost = replay(outputs, held, th.of(0))
    assert [(r.judge.escalation.decided_by, r.status == "passed") for r in results] == decided
    assert sum(r.cost_usd for r in results) == pytest.approx(cost)
    assert json.loads(path.read_text())["cascade"]["tiers"][0]["coverage"] > 0.5
