"""A judge's error counts on labels from its specificity q0 and sensitivity q1: m0 labels that
people failed and m1 they passed (the stats tests of issue 39 state their cases this way); and
the labels of the worked calibration example with its judge scripted to match them."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.stats.judge_correction import JudgeErrors
from support.judge_server import JudgeServer, Verdict

WORKED_WRONG = frozenset({1, 2, 31, 32, 33, 34})
"""The worked example's judge: 2 false fails of 30 passes, 4 false passes of 20 fails
(`JudgeErrors(20, 16, 30, 28)`)."""


def judge_errors(q0: float, q1: float, m0: int, m1: int) -> JudgeErrors:
    return JudgeErrors(human_fail=m0, judge_fail=round(q0 * m0), human_pass=m1,
                       judge_pass=round(q1 * m1))


def worked_labels(js: JudgeServer, folder: Path) -> Path:
    """50 labels of `examples/calibration` (30 passes, then 20 fails) in `folder/labels.jsonl`,
    its `release-judge` scripted to be wrong on `WORKED_WRONG`; returns the file."""
    lines = []
    for i in range(50):
        human = "pass" if i < 30 else "fail"
        judge_passes = (human == "pass") == (i not in WORKED_WRONG)
        js.script("release-judge", Verdict(score=0.9 if judge_passes else 0.2),
                  candidate=f"#L{i:02d}#")
        lines.append(json.dumps({"id": f"L{i:02d}", "candidate": f"note #L{i:02d}#",
                                 "human": human}))
    labels = folder / "labels.jsonl"
    labels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return labels
