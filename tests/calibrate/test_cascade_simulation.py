"""The escalation cascade's guarantee, simulated (docs/cascade.md, "The guarantee, tested").

500 labelled items; a cheap judge and a three-juror jury scripted on the loopback judge server
with known accuracy and confidence (support/cascade_sim.py). Every tier is run on every item once,
as `mcptest calibrate` runs them (the real tier grader, over HTTP, priced). Then 50 seeded splits:
calibrate on 250 items (the procedure `mcptest calibrate` uses), apply the thresholds to the
other 250, and
count how often the cascade's agreement with the labels reaches the target, and what it cost
against the jury alone. One split is also graded for real, through the run's cascade grader and
the record read back by the gate, to show that the replay is what a run does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import anyio
import pytest
from support.cascade_sim import CHEAP, JURORS, PRICES, THRESHOLD, Item, items
from support.judge_server import JudgeServer, Verdict

from mcptest.calibrate.cascade import TierOutput, TierSpec, calibrate_cascade
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

pytestmark = pytest.mark.slow  # 2,400 judge requests over loopback HTTP

TARGET, RISK, SPLITS = 0.9, 0.1, 50
SPECS = [TierSpec("llm-judge", [CHEAP]), TierSpec("llm-jury", list(JURORS))]


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


def test_fifty_splits(outputs: list[list[TierOutput]], data: list[Item]) -> None:
    """The numbers docs/cascade.md ("What it buys") quotes are printed (pytest -rP shows them)."""
    kept, cheap_kept, cascade_cost, jury_cost = 0, 0, 0.0, 0.0
    agreement, coverage, guaranteed = [], [], []
    for seed in range(SPLITS):
        order = list(range(len(data)))
        random.Random(seed).shuffle(order)
        cal, held = order[:250], order[250:]
        cascade, _ = calibrate_cascade([data[i].human for i in cal],
                                       [[out[i] for i in cal] for out in outputs], SPECS,
                                       TARGET, RISK)
        lam = cascade.tiers[0].threshold
        decided, cost = replay(outputs, held, lam)
        agreed = sum(v == data[i].human for (_, v), i in zip(decided, held, strict=True))
        agreement.append(agreed / len(held))
        kept += agreement[-1] >= TARGET
        settled = [(v, data[i].human) for (t, v), i in zip(decided, held, strict=True) if t == 1]
        cheap_kept += sum(v == h for v, h in settled) >= TARGET * len(settled)
        cascade_cost += cost
        jury_cost += sum(outputs[1][i].cost_usd for i in held)
        coverage.append(len(settled) / len(held))
        guaranteed.append(cascade.guaranteed_agreement)
    print(f"{SPLITS} splits: held-out agreement >= {TARGET:.0%} in {kept} "
          f"(lowest {min(agreement):.1%}, mean {sum(agreement) / SPLITS:.1%}); the cheap judge "
          f"settled {sum(coverage) / SPLITS:.0%} and kept {TARGET:.0%} on them in {cheap_kept}; "
          f"cost ${cascade_cost:.4f} against ${jury_cost:.4f} for the jury alone "
          f"({cascade_cost / jury_cost:.0%}); guaranteed {min(guaranteed):.1%} to "
          f"{max(guaranteed):.1%} (mean {sum(guaranteed) / SPLITS:.1%})")
    assert kept >= (1 - RISK) * SPLITS
    assert cascade_cost < 0.5 * jury_cost  # the cascade against the jury alone
    assert sum(coverage) / SPLITS > 0.5  # the cheap judge settles most items


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
