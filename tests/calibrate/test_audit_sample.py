"""`mcptest label REPORT --sample K` and `--estimate SHEET` (docs/statistics.md, "Audit
samples"): a seeded random sample of a run's judged verdicts into a labelling sheet, the sheet a
labels file `calibrate` reads once filled in, and the run's pass rate by PPI++ from it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from mcptest.calibrate.audit import draw, judged_items
from mcptest.calibrate.labels import load_labels
from mcptest.cli.main import main
from mcptest.errors import SuiteErrors
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.models import AssertionResult, JudgeDetail, Location, Report
from mcptest.report.models import TestResult as Row
from mcptest.stats.ppi import ppi_mean


def _report(n: int, seed: int = 5) -> tuple[Report, dict[str, bool]]:
    """n judged rows of a lenient judge; returns the report and each row's true verdict."""
    rng = random.Random(seed)
    rows, truth = [], {}
    for i in range(n):
        good = rng.random() < 0.6
        judged = good or rng.random() < 0.4  # passes 40% of the bad answers
        rows.append(Row(
            id=f"s.yaml::tool::t{i}", name=f"t{i}", suite_file="s.yaml",
            location=Location(file="s.yaml", line=i + 1), status="passed" if judged else "failed",
            assertions=[AssertionResult(
                index=0, target="result", matcher="llm-judge", actual=f"answer {i}",
                status="passed" if judged else "failed",
                judge=JudgeDetail(kind="llm-judge", rubric="Is it right?", score=0.9 if judged
                                  else 0.2, threshold=0.7))]))
        truth[f"s.yaml::tool::t{i}#0"] = good
    return build_report(suites=["s.yaml"], tests=rows, servers=[], started_at="x",
                        finished_at="y", duration_ms=1.0, judge=JudgeTotals()), truth


def test_the_sample_is_seeded_and_random() -> None:
    report, _ = _report(200)
    items = judged_items(report)
    assert len(items) == 200
    one, again, other = draw(items, 30, 1), draw(items, 30, 1), draw(items, 30, 2)
    assert [i.key for i in one] == [i.key for i in again] != [i.key for i in other]
    assert len({i.key for i in one}) == 30
    assert len(draw(items, 500, 1)) == 200


def test_sheet_to_labels_to_estimate(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    report, truth = _report(300)
    path = tmp_path / "run.json"
    path.write_text(report.model_dump_json(), encoding="utf-8")
    assert main(["label", str(path), "--sample", "60", "--seed", "7"]) == 0
    sheet = tmp_path / "run.labels.yaml"
    data = yaml.safe_load(sheet.read_text(encoding="utf-8"))
    assert data["audit"]["population"] == 300 and data["audit"]["seed"] == 7
    assert len(data["labels"]) == 60
    first = data["labels"][0]
    assert first["human"] is None and first["candidate"].startswith("answer ")
    assert "rubric: Is it right?" in first["note"]
    # unlabelled, the sheet is refused where a label is missing, naming file, line and key
    with pytest.raises(SuiteErrors, match=r"run.labels.yaml:\d+:\d+.*labels\[0\]\.human"):
        load_labels(sheet)
    for label in data["labels"]:
        label["human"] = "pass" if truth[label["id"]] else "fail"
    sheet.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert len(load_labels(sheet)) == 60  # a labels file for `calibrate --labels`
    capsys.readouterr()
    assert main(["label", str(path), "--estimate", str(sheet)]) == 0
    out = capsys.readouterr().out
    keys = [lab["id"] for lab in data["labels"]]
    items = {i.key: i for i in judged_items(report)}
    want = ppi_mean([float(truth[k]) for k in keys], [float(items[k].passed) for k in keys],
                    [float(i.passed) for k, i in items.items() if k not in set(keys)])
    assert want is not None
    assert f"PPI++ estimate {want.rate:.3f} [{max(0, want.low):.3f}, " in out
    judged = sum(i.passed for i in items.values()) / 300
    assert f"judged pass rate {judged:.3f} over 300" in out
    true_rate = sum(truth.values()) / 300
    assert want.low <= true_rate <= want.high < judged  # the judge overstates; PPI++ does not


def test_a_plain_labels_file_is_not_an_audit_sheet(tmp_path: Path) -> None:
    report, _ = _report(10)
    path = tmp_path / "run.json"
    path.write_text(report.model_dump_json(), encoding="utf-8")
    labels = tmp_path / "l.yaml"
    labels.write_text("labels:\n  - {candidate: x, human: pass}\n", encoding="utf-8")
    assert main(["label", str(path), "--estimate", str(labels)]) == 2
