"""The `md` format: the sticky PR comment and the job summary (GitHub-flavoured markdown).

Python gathers plain values; `templates/comment.md.j2` lays them out. Untrusted text reaches
the template only as data and leaves it only through the escaping filters, so Jinja never
evaluates it and markdown never acts on it. Past `max_chars` (60,000 by default: GitHub refuses
comments over 65,536) the passing list goes first, then table rows and details from the end,
and a note says what was left out.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from mcptest.report.models import JudgeDetail, JudgeVote, Report, TestResult
from mcptest.reporters import DEFAULTS, RenderOptions, display, seats
from mcptest.reporters.diff_markdown import FULL_CLOSE, FULL_OPEN, diff_block
from mcptest.reporters.escape import md_block, md_code, md_comment_value, md_inline, md_title
from mcptest.reporters.lint_markdown import lint_block
from mcptest.reporters.repeats_display import repeats_block
from mcptest.reporters.templating import environment
from mcptest.reporters.verdict_text import mode_line, vote_answer

MAX_CHARS = DEFAULTS.max_chars
MARKER_PREFIX = "<!-- mcptest-action"
_OPEN_DETAILS = 5
"""Failed or errored findings whose `<details>` start open; the rest start closed."""


@functools.cache
def _templates() -> Any:
    env = environment(autoescape=False, keep_trailing_newline=True)
    env.filters.update(md=md_inline, md_title=md_title, md_code=md_code, md_pre=md_block)
    return env.get_template("comment.md.j2").module


def comment_marker(suites: list[str], shard: str | None = None) -> str:
    """The one sticky-comment marker: the hidden first line that keys a comment to its suite set
    (and shard), so a later run updates that comment in place (docs/pr-comment.md)."""
    key = ",".join(md_comment_value(s) for s in sorted(suites))
    if shard:
        key += f" shard={md_comment_value(shard)}"
    return f"{MARKER_PREFIX}: suites={key} -->"


def marker(report: Report) -> str:
    """The marker of a report's comment (its suite set)."""
    return comment_marker(report.suites)


def _jury(judge: JudgeDetail) -> dict[str, Any] | None:
    j = judge.jury
    if j is None:
        return None
    return {
        "band": j.confidence or "n/a", "band_mark": display.BAND_MARK[j.confidence],
        "alpha": display.num(j.agreement), "passed": j.passed_jurors, "decisive": j.decisive,
        "quorum": None if j.panel else display.num(j.quorum), "verdict": j.verdict,
        "escalate": j.escalate,
        "bias_warning": j.bias_warning, "rests_on": seats.rests_on(j),
        "lost": seats.lost_text(j) if j.lost else None,
    }


def _vote(v: JudgeVote) -> dict[str, Any]:
    if v.error:
        vote = "⚠️ error:"
    elif v.abstained:
        vote = "○ abstained"
    else:
        vote = "❔ unknown" if v.passed is None else "✅" if v.passed else "❌"
    return {
        "model": v.model, "family": v.family or "", "score": vote_answer(v), "vote": vote,
        "error": v.error, "reason": v.reason or "", "replacement_for": v.replacement_for,
        "cached": v.cached,
    }


def _judge(judge: JudgeDetail | None) -> dict[str, Any] | None:
    if judge is None:
        return None
    return {
        "rubric": judge.rubric,
        "score": judge.display_score or (None if judge.score is None else display.num(judge.score)),
        "threshold": display.num(judge.threshold),
        "jury": _jury(judge),
        "mode": mode_line(judge),
        "votes": [_vote(v) for v in judge.votes],
        "criteria": [
            {"name": c.name, "score": display.num(c.score), "threshold": display.num(c.threshold),
             "weight": display.num(c.weight), "status": c.status, "required": c.required,
             "guard": c.guard, "reason": c.reason or ""}
            for c in judge.criteria
        ],
    }


def _judges_cell(judge: JudgeDetail | None) -> str:
    """Labels, numbers and already-escaped model names: the template emits it as is."""
    if judge is None:
        return ""
    if judge.jury:
        j = judge.jury
        review = " · ⚠ review" if j.escalate else ""
        band = f"{display.BAND_MARK[j.confidence]} {j.confidence or 'n/a'}"
        bias = " · ⚠ bias" if j.bias_warning else ""
        return f"{band} · α {display.num(j.agreement)}{review}{bias}"
    models = list(dict.fromkeys(v.model for v in judge.votes))
    more = f" +{len(models) - 2}" if len(models) > 2 else ""
    return ", ".join(md_code(model, 60) for model in models[:2]) + more


def _where(test: TestResult, finding: display.Finding | None = None) -> str:
    loc = finding.assertion.location if finding and finding.assertion else None
    loc = loc or test.location
    return f"{loc.file}:{loc.line}"


def _row(f: display.Finding) -> dict[str, Any]:
    calibration = md_inline(display.calibration_text(
        f.assertion.calibration if f.assertion else f.test.calibration), 160)
    judges = "<br>".join(part for part in (_judges_cell(f.judge), calibration) if part)
    return {
        "mark": f.mark, "name": f.test.name, "check": f.check, "target": f.target,
        "result": f.result,
        "judges": judges, "cost": display.cost(f.cost_usd) if f.cost_usd else "",
    }


def _tail(text: str | None, limit: int = 2000) -> str | None:
    """The end of a stderr tail, where the crash is, cut at a line start when possible."""
    if text is None or len(text) <= limit:
        return text
    cut = text[-limit:]
    return "…" + (cut.split("\n", 1)[1] if "\n" in cut[:200] else cut)


def _detail(f: display.Finding, open_: bool) -> dict[str, Any]:
    t, a = f.test, f.assertion
    has_values = a is not None and a.judge is None and (
        a.expected is not None or a.actual is not None
    )
    return {
        "open": open_, "mark": f.mark, "name": t.name, "title": f.result,
        "where": _where(t, f), "server": t.server, "tool": t.tool, "gap": t.gap,
        "check": f.check if a else None, "target": a.target if a else None,
        "user_message": a.user_message if a else None,
        "message": (a.message if a else t.message) if not f.escalated or a is None else None,
        "expected": display.value_text(a.expected) if a and has_values else None,
        "actual": display.value_text(a.actual) if a and has_values else None,
        "judge": _judge(f.judge),
        "args": display.value_text(t.args) if t.args is not None else None,
        "response": display.value_text(t.response) if t.response is not None else None,
        "stderr": _tail(t.server_stderr) if t.status != "passed" else None,
    }


def _header(report: Report) -> dict[str, Any]:
    s = report.summary
    budget_skips = display.budget_skips(report)
    return {
        "mark": display.verdict(report)[0], "counts": display.summary_bits(report),
        "review": display.to_review(report), "cost": display.cost_line(report),
        "servers": [
            {"name": sv.name, "status": sv.status, "error": sv.error}
            for sv in report.servers if sv.status != "ready"
        ],
        "budget_stopped": s.budget_stopped, "budget_skips": budget_skips,
        "interrupted": s.interrupted,
        "lost": [{"test": t.name, "text": seats.lost_text(j)}
                 for t, j in seats.lost_seats(report)],
        "lost_seats": sum(len(j.lost) for _, j in seats.lost_seats(report)),
    }


def _footer(report: Report) -> dict[str, Any]:
    s = report.summary
    gaps = display.gap_rows(report)
    return {
        "legend": display.BAND_LEGEND, "cache_hits": s.cache_hits, "judge_calls": s.judge_calls,
        "deferred": s.counts.deferred, "budget_skips": display.budget_skips(report),
        "projected": s.projected_judge_calls,
        "bound": display.cost(s.cost_bound_usd) if s.cost_bound_usd is not None else "",
        "cost": display.cost_line(report),
        "run_alpha": display.run_agreement_text(s) if s.run_agreement is not None else "",
        "duration": display.duration(s.duration_ms), "exit_code": s.exit_code,
        "exit_meaning": display.exit_text(report), "version": report.tool.version,
        "gaps": [f"{md_inline(k, 60)} {v}" for k, v, _ in gaps],
        "advice": [(md_inline(k, 60), advice) for k, _, advice in gaps if advice],
        "warnings": report.warnings,
    }


def _passing(report: Report) -> list[dict[str, Any]]:
    return [
        {"name": t.name, "where": _where(t), "duration": display.duration(t.duration_ms),
         "cost": display.cost(t.cost_usd) if t.cost_usd else ""}
        for t in report.tests if t.status == "passed"
    ]


def _fit(pieces: list[str], room: int) -> list[str]:
    """The longest prefix of `pieces` whose total length stays within `room`."""
    kept: list[str] = []
    for piece in pieces:
        if len(piece) > room:
            break
        kept.append(piece)
        room -= len(piece)
    return kept


def _upto(pieces: Iterator[str], limit: int) -> list[str]:
    """Render pieces until their total passes `limit`: later ones could never be kept."""
    out: list[str] = []
    total = 0
    for piece in pieces:
        out.append(piece)
        total += len(piece)
        if total > limit:
            break
    return out


def _details(m: Any, found: list[display.Finding]) -> Iterator[str]:
    n_open = 0
    for f in found:
        open_ = f.status in ("failed", "error") and n_open < _OPEN_DETAILS
        n_open += open_
        yield m.detail(_detail(f, open_))


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The PR comment / job summary markdown, at most `options.max_chars` characters long.

    Rows and details are rendered lazily, only as far as could fit, so a run of thousands of
    tests costs about as much as one that fills the comment once.
    """
    max_chars = options.max_chars
    m = _templates()
    found = display.findings(report)
    head = (m.marker(marker(report)) + m.header(_header(report)) + lint_block(report)
            + repeats_block(report))
    footer = m.footer(_footer(report))
    diff = diff_block(report)
    if diff:  # the difference leads; the full results follow, collapsed (docs/baseline.md)
        head = m.marker(marker(report)) + diff + FULL_OPEN + head.removeprefix(
            m.marker(marker(report)))
        footer = FULL_CLOSE + footer
    rows = _upto((m.row(_row(f)) for f in found), max_chars)
    details = _upto(_details(m, found), max_chars)
    n = len(found)
    table = [m.table_head(), *rows, "\n"] if rows else []
    passing = _passing(report)
    complete = len(rows) == n and len(details) == n
    body = len("".join([*table, *details]))
    room = max_chars - len(head) - len(footer) - body
    if complete and room >= 0:
        # A passing row takes at least ~30 characters: skip rendering a list that cannot fit.
        block = m.passing(passing, len(passing)) if 0 < 30 * len(passing) <= room else ""
        if len(block) <= room and (block or not passing):
            return "".join([head, *table, *details, block, footer])
    dropped: list[str] = []
    passing_block = ""
    if passing:
        passing_block = m.passing_dropped(len(passing))
        dropped.append(f"the list of {len(passing)} passing test(s)")
    fixed = len(head) + len(footer) + len(passing_block)
    if not complete or fixed + len(m.truncated(dropped)) + body > max_chars:
        worst = m.truncated([*dropped, f"{n} of {n} table row(s)", f"details of {n} of {n} x"])
        room = max_chars - fixed - len(worst)
        frame = len(m.table_head()) + 1
        # Rows first, up to half the room; details fill what rows left; rows take the rest.
        kept_rows = _fit(rows, room // 2 - frame)
        kept_details = _fit(details, room - frame - len("".join(kept_rows)))
        kept_rows = _fit(rows, room - frame - len("".join(kept_details)))
        if len(kept_rows) < n:
            dropped.append(f"{n - len(kept_rows)} of {n} table row(s)")
        if len(kept_details) < n:
            dropped.append(f"details of {n - len(kept_details)} of {n} finding(s)")
        table = [m.table_head(), *kept_rows, "\n"] if kept_rows else []
        details = kept_details
    return "".join([head, m.truncated(dropped), *table, *details, passing_block, footer])
