"""Calibration records a pull request wrote (issue 34): read as every committed file is (a regular
file, bounded), each number checked against its meaning, the cascade's thresholds bound to the
judge's tiers, and what a record says kept short."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mcptest.calibrate.cascade_record import CascadeCalibration, TierCalibration
from mcptest.calibrate.gate import MAX_WARNINGS, CalibrationGating
from mcptest.calibrate.record import (
    CalibrationRecord,
    JudgeIdentity,
    RecordError,
    read_record,
    write_record,
)
from mcptest.calibrate.stats import Confusion, Figures, Rate


def identity() -> JudgeIdentity:
    jury = JudgeIdentity(kind="llm-jury", rubric="r", threshold=0.7, models=["a", "b", "c"],
                         quorum=0.67)
    return JudgeIdentity(kind="llm-judge", rubric="r", threshold=0.7, models=["small"],
                         tiers=[jury])


def tier(n: int, models: list[str], *, last: bool = False) -> TierCalibration:
    return TierCalibration(tier=n, kind="llm-judge" if n == 1 else "llm-jury", models=models,
                           last=last, threshold=None if last else 0.2, labels=40, settled=30,
                           errors=1, coverage=0.75, agreement=0.96, guaranteed_agreement=0.9)


def record() -> CalibrationRecord:
    rate = Rate(hits=1, of=20, rate=0.05, ci95=None)
    figures = Figures(labels=40, kappa=0.8, alpha=0.8, accuracy=0.95, false_pass=rate,
                      false_fail=rate, confusion=Confusion(both_pass=20, both_fail=18,
                                                           false_pass=1, false_fail=1))
    cascade = CascadeCalibration(target_agreement=0.9, risk=0.1, risk_per_bound=0.033,
                                 labels=40, guaranteed_agreement=0.9, agreement=0.96,
                                 tiers=[tier(1, ["small"]), tier(2, ["a", "b", "c"], last=True)])
    ident = identity()
    return CalibrationRecord(identity=ident, identity_hash=ident.hash, labels_file="l.yaml",
                             created_at="2026-01-01T00:00:00Z", labels=40, verdict=figures,
                             cascade=cascade)


def written(tmp_path: Path, change: Any = None) -> Path:
    path = tmp_path / "r.cascade.json"
    write_record(record(), path)
    if change is not None:
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
    return path


def test_a_record_as_calibrate_writes_it_reads_back(tmp_path: Path) -> None:
    assert read_record(written(tmp_path)) == record()


def set_threshold(doc: dict[str, Any]) -> None:
    doc["cascade"]["tiers"][0]["threshold"] = -5


def set_guarantee(doc: dict[str, Any]) -> None:
    doc["cascade"]["guaranteed_agreement"] = 7.5


def set_labels(doc: dict[str, Any]) -> None:
    doc["verdict"]["labels"] = -3


def set_cost(doc: dict[str, Any]) -> None:
    doc["cascade"]["tiers"][1]["cost_per_verdict_usd"] = -1.0


def four_tiers(doc: dict[str, Any]) -> None:
    tiers = doc["cascade"]["tiers"]
    doc["cascade"]["tiers"] = [{**tiers[0], "tier": i + 1, "models": [f"other-{i}"]}
                               for i in range(3)] + [{**tiers[1], "tier": 4}]


def many_verdicts(doc: dict[str, Any]) -> None:
    doc["cascade"]["tiers"][0]["verdicts"] = {f"l{k}": "pass" for k in range(41)}


def more_flips_than_pairs(doc: dict[str, Any]) -> None:
    doc["drift"] = {"checked_at": "t", "labels": 40, "flips": 3, "flip_rate": 0.075,
                    "to_pass": 1, "p_value": 0.6, "stale": False, "reason": "r",
                    "tiers": [{"tier": 1, "labels": 40, "flips": 41, "flip_rate": 1.0,
                               "to_pass": 0, "p_value": 0.0, "stale": True, "reason": "r"}]}


def drift_p_above_one(doc: dict[str, Any]) -> None:
    more_flips_than_pairs(doc)
    doc["drift"]["p_value"] = 3.0


def drift_of_another_tier(doc: dict[str, Any]) -> None:
    more_flips_than_pairs(doc)
    doc["drift"]["tiers"][0].update(tier=3, flips=2)


@pytest.mark.parametrize(("change", "says"), [
    (many_verdicts, "cascade.tiers.0.verdicts: 41 entries, more than the record's 40 labels"),
    (more_flips_than_pairs, "drift.tiers.0: 0 flip(s) to pass of 41 flip(s) of 40 pair(s)"),
    (drift_p_above_one, "drift.p_value: 3.0 is not a possible p_value (from 0 to 1)"),
    (drift_of_another_tier, "drift.tiers: not the record's 2 cascade tier(s) in order"),
    (set_threshold, "cascade.tiers.0.threshold: -5.0 is not a possible threshold (from 0 to 1)"),
    (set_guarantee, "cascade.guaranteed_agreement: 7.5 is not a possible guaranteed_agreement"),
    (set_labels, "verdict.labels: -3 is not a possible labels"),
    (set_cost, "cascade.tiers.1.cost_per_verdict_usd: -1.0 is not a possible"),
    (four_tiers, "the thresholds are not those of the judge's tiers (4 tier(s) listed, the "
                 "judge has 2)"),
])
def test_a_number_that_cannot_mean_what_it_says_is_refused(tmp_path: Path, change: Any,
                                                            says: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(written(tmp_path, change))
    assert says in str(caught.value)


def test_nan_is_refused_on_the_bytes(tmp_path: Path) -> None:
    path = written(tmp_path)
    path.write_text(path.read_text().replace('"guaranteed_agreement": 0.9,',
                                             '"guaranteed_agreement": NaN,', 1))
    with pytest.raises(RecordError, match="NaN and Infinity are not JSON numbers"):
        read_record(path)


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        with pytest.raises(RecordError, match="not a regular file"):
            read_record(path)
    with pytest.raises(FileNotFoundError):
        read_record(tmp_path / "none.json")


def test_a_run_shows_a_few_short_warnings_of_a_record() -> None:
    gating = CalibrationGating(require=False)
    many = record().model_copy(update={"warnings": ["w" * 10_000] * 100_000})
    gating._records[Path("r.cascade.json")] = many  # what _record() keeps after a read
    shown = gating.warnings()
    assert len(shown) == MAX_WARNINGS + 1 and sum(map(len, shown)) < 5_000
    assert shown[-1].endswith("99990 more warning(s) not shown")
