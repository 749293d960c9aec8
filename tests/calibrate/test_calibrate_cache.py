"""`calibrate` never answers from a cached verdict (docs/calibration.md): it measures the judge
and what a verdict costs, so after the suite's judge changed it asks the new judge, every label
is asked again, and the record's costs are the calls' real ones, never $0 from a cache hit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from calibrate.test_escalate_example import CHEAP, JURORS, example, js, mcptest, script_labels
from support.judge_server import JudgeServer, Verdict

from mcptest.llm.cache import CacheKey, verdict_sampling
from mcptest.suite.models import JudgeDefaults

pytestmark = pytest.mark.slow  # starts the example server and mcptest processes
__all__ = ["example", "js"]  # fixtures

SUITE = "examples/escalate/mcptest.yml"
CALIBRATE = ["calibrate", SUITE, "--labels", "examples/calibration/labels.yaml",
             "--cache-dir", "cache", "--target-agreement", "0.8", "--risk", "0.2"]
RECORD = "examples/escalate/release-note.cascade.json"
NEW = "gpt-4.1-mini"


def _tier_costs(root: Path) -> list[float]:
    record = json.loads((root / RECORD).read_text())
    return [t["cost_per_verdict_usd"] for t in record["cascade"]["tiers"]]


def test_a_changed_judge_is_asked_again_and_its_costs_are_real(example: Path,
                                                               js: JudgeServer) -> None:
    script_labels(js, example)
    first = mcptest(example, js, *CALIBRATE)
    assert first.returncode == 0, first.stderr
    assert js.count(CHEAP) == 24 and all(js.count(j) == 24 for j in JURORS)
    assert any((example / "cache").rglob("*.json"))  # written for the runs after
    cheap_cost, jury_cost = _tier_costs(example)
    assert cheap_cost > 0 and jury_cost > 0

    # the small judge is now another model; the jury is unchanged
    suite = example / SUITE
    suite.write_text(suite.read_text().replace(f"model: {CHEAP}", f"model: {NEW}"))
    labels = yaml.safe_load((example / "examples/calibration/labels.yaml").read_text())["labels"]
    for label in labels:  # the new model answers what the old one did
        js.script(NEW, Verdict(score=0.97 if label["human"] == "pass" else 0.04),
                  candidate=label["candidate"])
    js.reset_counts()
    second = mcptest(example, js, *CALIBRATE)
    assert second.returncode == 0, second.stderr
    assert js.count(NEW) == 24 and js.count(CHEAP) == 0
    assert all(js.count(j) == 24 for j in JURORS)  # asked again, not served from the cache
    new_cheap, new_jury = _tier_costs(example)
    assert new_cheap > 0 and new_cheap != cheap_cost  # the new model's price, not $0
    assert new_jury == pytest.approx(jury_cost)
    assert f"tier 1: {NEW}" in json.loads((example / RECORD).read_text())["jurors"]


def test_settings_that_change_a_verdict_change_the_key() -> None:
    base = dict(model="m", messages=[{"role": "user", "content": "x"}], rubric="r",
                candidate="c", repetition=0)
    digests = {CacheKey(**base, sampling=verdict_sampling(d)).digest() for d in (
        JudgeDefaults(), JudgeDefaults(temperature=0.5), JudgeDefaults(max_tokens=64),
        JudgeDefaults(structured_output=False))}
    assert len(digests) == 4
    # the default keeps the key entries had before structured output was keyed
    assert verdict_sampling(JudgeDefaults()) == {"temperature": 0.0, "max_tokens": 1024}
