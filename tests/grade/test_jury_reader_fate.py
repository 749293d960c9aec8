"""`jury.*` readers of a jury without analytics follow the jury's fate, in good English: one
cause (no judge reachable under --require-judge) reads the same for a lone judge and a jury."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from support.cli_inproc import cli
from support.servers import REPO

from mcptest.grade.grader import grade_test
from mcptest.grade.rows import assertion_result
from mcptest.plan import build_plan
from mcptest.report.models import JudgeDetail
from mcptest.suite.load import load_suites

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.report.models import AssertionResult, Status

JUDGES = REPO / "examples" / "judges.yml"
ANSWER: dict[str, Any] = {
    "result": {"content": [{"type": "text", "text": "checkout v7.0.0 deployed"}],
               "isError": False}}


class Jury:
    """Stands in for the judge engine: the jury ends with `status` and no analytics."""

    def __init__(self, status: Status) -> None:
        self.status = status

    async def grade(self, test: PlannedTest, planned: PlannedAssertion, candidate: Any,
                    response: Any = None) -> AssertionResult:
        return assertion_result(planned, self.status, duration_ms=0.0, message="why",
                                judge=JudgeDetail(kind="llm-jury"))


def readers_after(status: Status) -> list[AssertionResult]:
    suites = load_suites([JUDGES], env={"MCPTEST_PYTHON": sys.executable})
    (test,) = build_plan(suites, filter="three-model jury").tests
    rows = anyio.run(grade_test, test, ANSWER, Jury(status))
    return [r for r in rows if r.target.startswith("jury.")]


@pytest.mark.parametrize(("jury", "reader", "words"), [
    ("failed", "failed", "failed"),
    ("error", "error", "ended in an error"),
    ("deferred", "deferred", "was deferred"),
    ("skipped", "skipped", "was skipped"),
    ("not_yet_available", "not_yet_available", "is not available in this build"),
    ("passed", "error", "passed without recording its analytics"),
])
def test_readers_follow_the_jury_in_good_english(jury: Status, reader: str, words: str) -> None:
    readers = readers_after(jury)
    assert len(readers) == 3
    for r in readers:
        assert r.status == reader
        assert r.message == f"no jury analytics to read: the llm-jury assertion {words}"


@pytest.mark.slow
def test_required_judge_fails_a_jury_as_it_fails_a_judge(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    ran = cli("run", JUDGES, "--require-judge", "--no-cache", "--reporter", "json",
              "--output", out, cwd=REPO, env={"MCPTEST_PYTHON": sys.executable})
    assert ran.returncode == 1, ran.stderr
    tests = json.loads(out.read_text())["tests"]
    assert [t["status"] for t in tests] == ["failed", "failed"]
    jury = tests[1]["assertions"]
    assert [a["status"] for a in jury] == ["passed", "failed", "failed", "failed", "failed"]
    assert "was failed" not in json.dumps(jury)
