"""What a SARIF result is made of: the rules (one per kind of failure) and the findings of a
report, one per test that did not pass and per passed test whose jury is to review. Shared by
`sarif` and `gitlab`, so both name the same rules (docs/reports.md, "sarif")."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from mcptest.reporters import seats

if TYPE_CHECKING:
    from mcptest.report.models import Report, TestResult

Level = Literal["error", "warning", "note"]

# rule id -> (short description, what it means / what to do, default level)
RULES: dict[str, tuple[str, str, Level]] = {
    "mcptest/exact": ("Value differs from the expected one",
                      "An `exact` assertion compared the target by deep JSON equality and "
                      "found a different value.", "error"),
    "mcptest/contains": ("Expected content missing", "A `contains` assertion did not find the "
                         "substring, element or key/value pairs it names.", "error"),
    "mcptest/regex": ("Pattern not found", "A `regex` assertion found no match in the target.",
                      "error"),
    "mcptest/schema": ("Value breaks its JSON Schema", "A `schema` assertion: the target does "
                       "not validate against the schema written in the suite.", "error"),
    "mcptest/not": ("Negated check matched", "A `not` assertion: the wrapped matcher passed.",
                    "error"),
    "mcptest/all": ("A combined check failed", "An `all` assertion: a member matcher failed.",
                    "error"),
    "mcptest/any": ("No alternative matched", "An `any` assertion: every member failed.",
                    "error"),
    "mcptest/llm-judge": ("LLM judge failed the answer", "An `llm-judge` assertion scored the "
                          "answer below its threshold; the judge's reason is in the message.",
                          "error"),
    "mcptest/llm-jury": ("LLM jury failed the answer", "An `llm-jury` assertion: too few "
                         "decisive jurors passed the answer to meet the quorum.", "error"),
    "mcptest/eval": ("Rubric eval below its gate", "A rubric eval scored below its threshold "
                     "or a required or guard criterion gated it.", "error"),
    "mcptest/custom": ("Custom judge failed the answer", "A custom judge (Python callable or "
                       "external command) returned a failing verdict.", "error"),
    "mcptest/server-not-ready": ("MCP server never became ready", "The server failed to start, "
                                 "exited early, timed out or refused the connection; its tests "
                                 "could not run.", "error"),
    "mcptest/transport": ("MCP server unreachable or crashed", "The connection to a ready server "
                          "broke during the test.", "error"),
    "mcptest/protocol": ("Malformed MCP message", "The server broke the MCP protocol.", "error"),
    "mcptest/tool-error": ("Tool returned an error", "The tool call came back with `isError` or "
                           "a JSON-RPC error.", "error"),
    "mcptest/judge-error": ("Judges could not decide", "Judge calls failed mechanically or the "
                            "jury was inconclusive.", "error"),
    "mcptest/judge-calibration": ("Judge not calibrated for this failure", "The judge is not "
                                  "calibrated against human labels (--require-calibration), or "
                                  "its record shows a false-fail rate above the bound.",
                                  "error"),
    "mcptest/judge-advisory": ("Uncalibrated judge failed the answer (advisory)", "The judge has "
                               "no valid calibration record, so its failing verdict is advisory "
                               "and does not fail the run.", "warning"),
    "mcptest/replay-diverged": ("Server answered differently from the model cassette",
                                "A replayed model asked something its cassette did not "
                                "record: a tool answered differently from the recording. The "
                                "message shows the first differing turn as a diff.", "error"),
    "mcptest/tool-selection": ("Models picked the wrong tool", "A selection test's models "
                               "did not pick the expected tool for enough of its prompts, or "
                               "won some by too small a margin: the tools' descriptions lead "
                               "them elsewhere. The message names the closest prompts.",
                               "error"),
    "mcptest/test-error": ("Test errored", "The test could not be completed.", "error"),
    "mcptest/test-failed": ("Test failed", "The test failed.", "error"),
    "mcptest/flaky": ("Repetitions disagreed", "A repeated test passed some repetitions and "
                      "failed others; an error when its pass rate is below min_pass_rate.",
                      "warning"),
    "mcptest/budget": ("Judge call skipped by the budget cap", "The call's worst-case cost would "
                       "have crossed `--max-cost`, so it was not sent.", "warning"),
    "mcptest/changed-evidence": ("Verdict rests on evidence this pull request changed",
                                 "The test passed on a model cassette or calibration record "
                                 "that differs from the merge-base: the verdict is the "
                                 "file's; review the file's change.", "warning"),
    "mcptest/skipped": ("Test skipped", "The test or its deciding assertion was skipped.",
                        "warning"),
    "mcptest/judge-deferred": ("Judge deferred", "No judge API key or gateway was available; the "
                               "assertion is not measured: never a pass, a failure only "
                               "under `--require-judge`.", "warning"),
    "mcptest/jury-escalated": ("Jury escalated for human review", "The jurors' agreement "
                               "(Krippendorff's alpha) is low; the verdict stands but needs a "
                               "person to look.", "warning"),
    "mcptest/jury-seat-lost": ("Jury decided without a seat lost to an error", "A juror's calls "
                               "failed (and its stand-in's, if any): the verdict rests on the "
                               "jurors that answered; `strict_panel` or --require-judge makes "
                               "this a failure.", "warning"),
    "mcptest/not-yet-available": ("Feature not yet available", "The suite uses a feature the "
                                  "schema accepts but this runner cannot run yet; never a pass.",
                                  "warning"),
}
BASELINE_STATE: dict[str, str] = {
    "regressed": "new", "new": "new", "newly_flaky": "new", "still_failing": "unchanged",
    "unchanged": "unchanged", "insufficient_data": "unchanged", "changed": "updated",
    "unconfirmed": "unchanged", "not_measured": "unchanged",
}
"""SARIF `baselineState` of a result from its row's change (docs/baseline.md): a regression is
`new` to code scanning, an old failure `unchanged`, a redefined test `updated`."""
UNKNOWN_RULE = ("Check failed", "An assertion of this kind failed.", "error")
_RULE_CHARS = re.compile(r"[^a-z0-9-]+")


@dataclass(frozen=True)
class Finding:
    """One test that needs a look, where it points and under which rule (shared with gitlab)."""

    test: TestResult
    rule: str
    level: Level
    file: str
    line: int
    column: int
    assertion_index: int
    """Index of the deciding assertion; -1 when the test as a whole decided."""
    message: str

    @property
    def fingerprint(self) -> str:
        """sha256 of rule, file, test name and assertion index: stable while the message moves."""
        key = "\0".join([self.rule, self.file, self.test.name, str(self.assertion_index)])
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _escalated(test: TestResult) -> bool:
    judges = [test.judge, *(a.judge for a in test.assertions)]
    return any(j is not None and j.jury is not None and j.jury.escalate for j in judges)


def _lost(test: TestResult) -> bool:
    """A jury of the test lost a seat to an error (docs/jury.md, "Lost seats")."""
    return any(seats.has_lost_seat(j) for j in [test.judge, *(a.judge for a in test.assertions)])


def _advisory(test: TestResult) -> bool:
    notes = [test.calibration, *(a.calibration for a in test.assertions)]
    return any(c is not None and c.advisory for c in notes)


def calibration_props(test: TestResult, index: int) -> dict[str, Any] | None:
    """The deciding assertion's calibration figures (docs/calibration.md), camelCased."""
    a = next((a for a in test.assertions if a.index == index), None)
    c = a.calibration if a is not None else test.calibration
    if c is None:
        return None
    props = {"state": c.state, "advisory": c.advisory, "record": c.record, "labels": c.labels,
             "kappa": c.kappa, "alpha": c.alpha, "accuracy": c.accuracy,
             "falsePassRate": c.false_pass_rate, "falseFailRate": c.false_fail_rate}
    return {k: v for k, v in props.items() if v is not None}


def _matcher_rule(kind: str) -> str:
    return "mcptest/" + (_RULE_CHARS.sub("-", kind.lower()).strip("-") or "check")


def _rule_for(test: TestResult, not_ready: set[str], matcher: str | None) -> str:
    status, gap = test.status, test.gap
    if status == "not_yet_available":
        return "mcptest/not-yet-available"
    if status == "deferred":
        return "mcptest/judge-advisory" if _advisory(test) else "mcptest/judge-deferred"
    if status == "flaky":
        return "mcptest/flaky"
    if status == "passed":
        if not (_lost(test) or _escalated(test)) and test.evidence:
            return "mcptest/changed-evidence"
        return "mcptest/jury-seat-lost" if _lost(test) else "mcptest/jury-escalated"
    if gap == "budget":
        return "mcptest/budget"
    if status == "skipped":
        return "mcptest/skipped"
    if gap == "transport":
        return "mcptest/server-not-ready" if test.server in not_ready else "mcptest/transport"
    if gap in ("protocol", "tool-error"):
        return f"mcptest/{gap}"
    if gap == "judge-reliability":
        return "mcptest/judge-error"
    if gap == "judge-calibration":
        return "mcptest/judge-calibration"
    if gap == "replay":
        return "mcptest/replay-diverged"
    if gap == "selection":
        return "mcptest/tool-selection"
    if matcher:
        return _matcher_rule(matcher)
    if test.judge is not None:
        return _matcher_rule(test.judge.kind)
    return "mcptest/test-error" if status == "error" else "mcptest/test-failed"


def _finding(test: TestResult, not_ready: set[str]) -> Finding:
    decider = next((a for a in test.assertions if a.status == test.status), None)
    if test.status == "passed":
        decider = next((a for a in test.assertions if seats.has_lost_seat(a.judge)), None) \
            or next((a for a in test.assertions
                     if a.judge and a.judge.jury and a.judge.jury.escalate), None)
    loc = decider.location if decider and decider.location else test.location
    rule = _rule_for(test, not_ready, decider.matcher if decider else None)
    level: Level = "error" if test.status in ("failed", "error") or (
        test.status == "flaky" and not (test.repeat and test.repeat.met)) else "warning"
    why = (decider.message or decider.user_message) if decider else None
    jury = decider.judge.jury if decider and decider.judge else None
    if test.status == "passed" and jury is not None and jury.lost:
        why = f"the verdict '{jury.verdict}' rests on a partial jury: {seats.lost_text(jury)}"
    elif test.status == "passed" and jury is not None:
        agreement = "n/a" if jury.agreement is None else f"{jury.agreement:.2f}"
        worth = f", {seats.effective_text(jury.effective_jurors)}" if jury.effective_jurors else ""
        why = (f"jury agreement {agreement} ({jury.confidence or 'n/a'} confidence{worth}); the "
               f"verdict '{jury.verdict}' stands but needs a person to look")
    elif jury is not None and jury.lost and seats.lost_text(jury) not in (why or ""):
        why = f"{why}; {seats.lost_text(jury)}"
    if rule == "mcptest/changed-evidence":
        why = f"rests on evidence this pull request changed: {', '.join(test.evidence)}"
    why = why or test.message or RULES.get(rule, UNKNOWN_RULE)[0]
    label = ("passed" if (jury is not None and jury.lost) or rule == "mcptest/changed-evidence"
             else "escalated") if test.status == "passed" else test.status.replace("_", " ")
    cost = f" (judge cost ${test.cost_usd:.4f})" if test.cost_usd else ""
    message = f"{test.name} {label}: {why}{cost}"
    return Finding(test=test, rule=rule, level=level, file=loc.file, line=max(loc.line, 1),
                   column=max(loc.column, 1),
                   assertion_index=decider.index if decider else -1, message=message)


def findings(report: Report) -> list[Finding]:
    """Every test worth a code-scanning alert, errors first, in report order within a level."""
    not_ready = {s.name for s in report.servers if s.status != "ready"}
    found = [_finding(t, not_ready) for t in report.tests
             if t.status != "passed" or _escalated(t) or _lost(t) or t.evidence]
    return sorted(found, key=lambda f: f.level != "error")
