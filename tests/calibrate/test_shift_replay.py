"""A cascade whose shift check fires at an interim look, recorded with model cassettes and
replayed (docs/cassettes.md, docs/cascade.md "When the guarantee does not apply"): the replay
must ask exactly what the recording asked, whatever order the answers finish in. The judge
answers after a jittered delay while recording, at once in replay, and the judge concurrency is
high, so the answers finish in a different order each time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from calibrate.test_escalate_example import CHEAP, JURORS, example, js, mcptest, script_labels
from calibrate.test_shift_cli import CALIBRATE, _shifted_suite
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts the example server and mcptest processes
__all__ = ["example", "js"]  # fixtures

COUNT = 64
RUN = ("--no-cache", "--concurrency", "16", "--reporter", "json", "--output", "report.json")


def _rows(root: Path, js: JudgeServer, suite: str, mode: str) -> tuple[dict, list[tuple]]:
    out = mcptest(root, js, "run", suite, "--models", mode, *RUN)
    report = json.loads((root / "report.json").read_text(encoding="utf-8"))
    bad = [(t["status"], t["assertions"][0]["message"][-700:]) for t in report["tests"]
           if t["status"] != "passed"]
    assert out.returncode == 0 and not bad, (mode, bad[:1], len(bad), report["summary"].get("cassettes"))
    rows = []
    for t in report["tests"]:  # in plan order
        a = t["assertions"][0]
        asked = a["message"].startswith("escalated after the run: ")  # tier 1 had settled it
        rows.append((t["id"], t["status"], t.get("gap"), a["status"],
                     a["judge"]["escalation"]["decided_by"], asked, a["message"]))
    return report, rows


def test_a_look_that_fired_replays_as_it_was_recorded(example: Path, js: JudgeServer) -> None:
    script_labels(js, example)
    assert mcptest(example, js, *CALIBRATE).returncode == 0
    for k in range(COUNT):  # barely sure, each after its own delay: they finish out of order
        lag = (k * 7 % 11) * 0.015
        js.script(CHEAP, Verdict(score=0.75, latency=lag), candidate=f"Deployed zeta{k:02d}")
        for juror in JURORS:
            js.script(juror, Verdict(score=0.9, latency=lag / 2),
                      candidate=f"Deployed zeta{k:02d}")
    suite = _shifted_suite(example, COUNT)
    recorded, want = _rows(example, js, suite, "record")
    said = [w for w in recorded["warnings"] if w.startswith("cascade release-note.cascade.json")]
    assert len(said) == 1 and "found at a look after 30 answers of tier 1" in said[0], said
    cheap = sum(1 for r in want if r[5])
    assert cheap == 30, cheap  # tier 1 is asked for the answers the look covers, no more
    assert [r[5] for r in want] == [k < 30 for k in range(COUNT)]  # the first 30 in plan order
    for _ in range(3):
        js.reset_counts()
        replayed, got = _rows(example, js, suite, "replay")
        assert js.count() == 0  # nothing sent
        assert replayed["summary"]["cassettes"]["diverged"] == 0, replayed["summary"]["cassettes"]
        assert got == want  # the same tiers asked, the same verdicts, the same messages
        assert [w for w in replayed["warnings"] if w.startswith("cascade ")] == said
