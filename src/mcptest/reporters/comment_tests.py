"""One block per test in the PR comment and the job summary (docs/pr-comment.md): a table row
and a `<details>` holding every check of that test that needs a look, the response once and the
server's stderr of the test's own window.

Inside a block a jury leads: its votes, dissent first, then the checks that read it (`jury.*`),
so the why is read before the consequences. Values here are plain data; the template escapes
every one that came from a server, a model or a suite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.reporters import cascade_display, display, seats
from mcptest.reporters.escape import md_code, md_inline
from mcptest.reporters.headline import unjudged
from mcptest.reporters.response_view import view
from mcptest.reporters.verdict_text import mode_line, vote_answer

if TYPE_CHECKING:
    from mcptest.report.models import JudgeDetail, JudgeVote, TestResult

_RANK = {s: i for i, s in enumerate(display.STATUS_ORDER)}


def _reads_jury(f: display.ReviewRow) -> bool:
    return f.assertion is not None and f.assertion.target.startswith("jury.")


def _has_jury(f: display.ReviewRow) -> bool:
    return f.judge is not None and f.judge.jury is not None


def _judged(judge: JudgeDetail | None) -> bool:
    """A judge that said something: a vote that was not deferred, criteria, or the tiers of an
    escalation cascade (docs/cascade.md, "In reports")."""
    return judge is not None and (bool(judge.criteria) or judge.escalation is not None or any(
        not v.deferred for v in judge.votes))


def _needs_look(f: display.ReviewRow) -> bool:
    return f.status != "passed" or f.escalated or f.lost


@dataclass(frozen=True)
class Block:
    """A test that needs a look, with its findings in reading order: a jury before the checks
    that read it (shown for context even when the jury itself passed)."""

    test: TestResult
    findings: list[display.ReviewRow]

    @property
    def checks(self) -> list[display.ReviewRow]:
        """The findings that need a look (not a passing jury shown for context)."""
        return [f for f in self.findings if _needs_look(f)]

    @property
    def lead(self) -> display.ReviewRow:
        """The test's worst check, or its jury when the jury's readers failed."""
        return self.checks[0]

    @property
    def mark(self) -> str:
        if self.test.status == "passed":
            return display.STATUS_MARK["escalated"]
        return display.STATUS_MARK[self.test.status]

    @property
    def rank(self) -> int:
        return _RANK[self.test.status]


def block(test: TestResult) -> Block | None:
    """The test's block, or None when nothing in it needs a look."""
    found = sorted(display.test_findings(test), key=lambda f: _RANK[f.status])
    if not found:
        return None
    readers = [f for f in found if _reads_jury(f)]
    if not readers:
        return Block(test, found)
    jury = next((f for f in found if _has_jury(f)), None)
    rest = [f for f in found if not _reads_jury(f)]
    if jury is None:  # the jury passed, its readers did not: its votes are the why
        judged = next((a for a in test.assertions if a.judge and a.judge.jury), None)
        if judged is None:
            return Block(test, found)
        jury = display.ReviewRow(test, judged, judged.status, False)
        rest.insert(next((i for i, f in enumerate(rest) if _RANK[f.status] > _RANK[
            readers[0].status]), len(rest)), jury)
    at = rest.index(jury) + 1  # the jury first, then the checks that read it
    return Block(test, [*rest[:at], *readers, *rest[at:]])


def blocks(tests: list[TestResult]) -> list[Block]:
    """Blocks of the tests that need a look, worst status first, then in report order. Tests
    no judge answered are left to the not-run list (`headline.unjudged`)."""
    out = [b for t in tests if not unjudged(t) and (b := block(t)) is not None]
    return sorted(out, key=lambda b: b.rank)


# -- the table row ---------------------------------------------------------------------------


def dissent(judge: JudgeDetail | None) -> list[JudgeVote]:
    """Jurors that voted against their jury's verdict (or answered another label)."""
    if judge is None or judge.jury is None:
        return []
    if judge.verdict_kind == "labeled" and judge.verdict is not None:
        return [v for v in judge.votes if v.label is not None and v.label != judge.verdict]
    if judge.jury.verdict not in ("passed", "failed"):
        return []
    won = judge.jury.verdict == "passed"
    return [v for v in judge.votes if v.passed is not None and not v.abstained
            and v.passed != won]


def _dissent_text(votes: list[JudgeVote]) -> str:
    return "; ".join(f"{v.model} {vote_answer(v)}: {v.reason or 'no reason given'}"
                     for v in votes)


def judges_cell(judge: JudgeDetail | None) -> str:
    """Labels, numbers and already-escaped model names: the template emits it as is."""
    if judge is None:
        return ""
    tier = cascade_display.tier_cell(judge)
    if tier:
        rest = judges_cell(judge.model_copy(update={"escalation": None}))
        return f"{tier} · {rest}" if rest else tier
    if judge.jury:
        j = judge.jury
        review = " · ⚠ review" if j.escalate else ""
        band = f"{display.BAND_MARK[j.confidence]} {j.confidence or 'n/a'}"
        bias = " · ⚠ bias" if j.bias_warning else ""
        e = j.effective_jurors
        worth = "" if e is None else (
            f" · on {e.value:.1f} of {e.jurors} effective jurors" if e.value is not None
            else " · effective jurors not estimated")
        return f"{band} · α {display.num(j.agreement)}{worth}{review}{bias}"
    models = list(dict.fromkeys(v.model for v in judge.votes))
    more = f" +{len(models) - 2}" if len(models) > 2 else ""
    return ", ".join(md_code(model, 60) for model in models[:2]) + more


def row(b: Block) -> dict[str, Any]:
    f = b.lead
    judge = f.judge or next((x.judge for x in b.findings if _has_jury(x)), None)
    calibration = md_inline(display.calibration_text(
        f.assertion.calibration if f.assertion else f.test.calibration), 160)
    result = f.result
    if against := dissent(f.judge):
        result += f" · dissent: {_dissent_text(against)}"
    more = len(b.checks) - 1
    return {
        "mark": b.mark, "name": b.test.name, "check": f.check, "target": f.target,
        "more": f"+{more} more check{'' if more == 1 else 's'}" if more else "",
        "result": result,
        "judges": "<br>".join(p for p in (judges_cell(judge), calibration) if p),
        "cost": display.cost(b.test.cost_usd) if b.test.cost_usd else "",
    }


# -- the details -----------------------------------------------------------------------------


def _jury(judge: JudgeDetail) -> dict[str, Any] | None:
    j = judge.jury
    if j is None:
        return None
    return {
        "band": j.confidence or "n/a", "band_mark": display.BAND_MARK[j.confidence],
        "alpha": display.num(j.agreement), "passed": j.passed_jurors, "decisive": j.decisive,
        "quorum": None if j.panel else display.num(j.quorum), "verdict": j.verdict,
        "escalate": j.escalate, "bias_warning": j.bias_warning, "rests_on": seats.rests_on(j),
        "effective": seats.effective_text(j.effective_jurors),
        "lost": seats.lost_text(j) if j.lost else None,
    }


def _vote(v: JudgeVote, dissents: bool) -> dict[str, Any]:
    if v.error:
        vote = "⚠️ error:"
    elif v.abstained:
        vote = "○ abstained"
    else:
        vote = "❔ unknown" if v.passed is None else "✅" if v.passed else "❌"
    return {
        "model": v.model, "family": v.family or "", "score": vote_answer(v),
        "vote": vote + (" dissents" if dissents else ""), "error": v.error,
        "reason": v.reason or "", "replacement_for": v.replacement_for, "cached": v.cached,
    }


def _judge(judge: JudgeDetail) -> dict[str, Any]:
    against = dissent(judge)
    votes = [v for v in judge.votes if any(v is d for d in against)] + [
        v for v in judge.votes if not any(v is d for d in against)]
    return {
        "rubric": judge.rubric.strip() if judge.rubric else None,
        "score": judge.display_score or (None if judge.score is None else display.num(judge.score)),
        "threshold": display.num(judge.threshold),
        "jury": _jury(judge),
        "mode": mode_line(judge),
        "tiers": cascade_display.tier_lines(judge),
        "votes": [_vote(v, any(v is d for d in against)) for v in votes],
        "criteria": [
            {"name": c.name, "score": display.num(c.score), "threshold": display.num(c.threshold),
             "weight": display.num(c.weight), "status": c.status, "required": c.required,
             "guard": c.guard, "reason": c.reason or ""}
            for c in judge.criteria
        ],
    }


def where(test: TestResult, finding: display.ReviewRow | None = None) -> str:
    loc = finding.assertion.location if finding and finding.assertion else None
    loc = loc or test.location
    return f"{loc.file}:{loc.line}"


def _check(f: display.ReviewRow) -> dict[str, Any]:
    a = f.assertion
    judged = _judged(f.judge)
    # a jury's own words are its jury line; the grader's message is shown when it adds to it
    message = None if judged and f.escalated else f.result
    if message and f.test.gap == "replay" and a is None:  # its turn diff is the detail's `diff`
        message = message.split("\n", 1)[0]
    return {
        "mark": f.mark,
        "check": (a.matcher if a else f.judge.kind) if judged and f.judge else f.check,
        "target": a.target if a else f.target, "result": message,
        "note": a.user_message if a else None,
        "where": where(f.test, f) if a else None,
        "judge": _judge(f.judge) if judged and f.judge else None,
    }


def _title(b: Block) -> str:
    """What the block holds, never the reason (the table row right above says it)."""
    if len(b.checks) == 1:
        f = b.lead
        return f.check + (f" {f.target}" if f.target else "")
    kinds = list(dict.fromkeys(f.assertion.matcher if f.assertion else f.check
                               for f in b.checks))
    return f"{len(b.checks)} checks: {', '.join(kinds)}"


def detail(b: Block, open_: bool) -> dict[str, Any]:
    t = b.test
    checks = [_check(f) for f in b.findings]
    response = view(t.response) if t.response is not None else None
    stderr_label = ("server stderr while this test ran" if t.server_stderr_scope == "test"
                    else "server stderr (the server's tail, not only this test's)")
    return {
        "open": open_, "mark": b.mark, "name": t.name, "title": _title(b),
        "where": where(t), "server": t.server, "tool": t.tool, "gap": t.gap,
        "judged": [c for c in checks if c["judge"]],
        "checks": [c for c in checks if not c["judge"]],
        "args": display.value_text(t.args) if t.args is not None else None,
        "response": response,
        "stderr": _tail(t.server_stderr) if t.status != "passed" else None,
        "stderr_label": stderr_label, "diff": _replay_diff(t),
    }


def _replay_diff(t: TestResult) -> str | None:
    """A replay that diverged: the turn diff under its message's first line (docs/cassettes.md)."""
    if t.gap != "replay" or not t.message or "\n" not in t.message:
        return None
    return t.message.split("\n", 1)[1]


def _tail(text: str | None, limit: int = 2000) -> str | None:
    """The end of a stderr text, where the crash is, cut at a line start when possible."""
    if text is None or len(text) <= limit:
        return text
    cut = text[-limit:]
    return "…" + (cut.split("\n", 1)[1] if "\n" in cut[:200] else cut)
