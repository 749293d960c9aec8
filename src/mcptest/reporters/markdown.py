"""The `md` format: the sticky PR comment and the job summary (GitHub-flavoured markdown).

The headline (`headline.py`), then one row and one block per test that needs a look
(`comment_tests.py`), then the tests not judged and the passing ones, collapsed
(docs/pr-comment.md).
Python gathers plain values; `templates/comment.md.j2` lays them out. Untrusted text reaches
the template only as data and leaves it only through the escaping filters, so Jinja never
evaluates it and markdown never acts on it. Past `max_chars` (60,000 by default: GitHub refuses
comments over 65,536) the two lists go first, then table rows and details from the end, and a
note says what was left out.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from mcptest.reporters import (
    DEFAULTS,
    RenderOptions,
    cascade_display,
    corrected_display,
    display,
    headline,
    seats,
)
from mcptest.reporters.comment_tests import Block, blocks, detail, row, where
from mcptest.reporters.diff_markdown import FULL_CLOSE, FULL_OPEN, diff_block
from mcptest.reporters.escape import md_block, md_code, md_comment_value, md_inline, md_title
from mcptest.reporters.lint_markdown import lint_block
from mcptest.reporters.repeats_display import repeats_block
from mcptest.reporters.selection_display import selection_block
from mcptest.reporters.templating import environment

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.report.models import Report, TestResult

MAX_CHARS = DEFAULTS.max_chars
MARKER_PREFIX = "<!-- mcptest-action"
_OPEN_DETAILS = 5
"""Failed or errored tests whose `<details>` start open; the rest start closed."""


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


def report_marker(report: Report) -> str:
    """The marker of a report's comment (its suite set)."""
    return comment_marker(report.suites)


def _header(report: Report, missed: headline.NotRun) -> dict[str, Any]:
    s = report.summary
    savings = cascade_display.savings(report)  # the comment's headline ends with it
    return {
        "mark": display.run_verdict(report)[0],
        "headline": headline.items(report, missed) + ([savings] if savings else []),
        "servers": [
            {"name": sv.name, "status": sv.status, "error": sv.error}
            for sv in report.servers if sv.status != "ready"
        ],
        "budget_stopped": s.budget_stopped, "budget_skips": display.budget_skips(report),
        "cost": display.cost_line(report), "interrupted": s.interrupted,
        "cascade": cascade_display.run_line(report),
        "not_run": missed.count if missed.tests else "", "not_run_causes": missed.cause_text,
        "missing_keys": display.either(missed.keys) if set(missed.causes) == {"no key"} else "",
        "lost": [{"test": t.name, "text": seats.lost_text(j)}
                 for t, j in seats.juries_with_lost_seats(report)],
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
        "warnings": report.warnings, "cassettes": display.cassette_line(report),
    }


def _passing(report: Report) -> list[TestResult]:
    return [t for t in report.tests if t.status == "passed"]


def _lists(m: Any, report: Report, missed: headline.NotRun) -> str:
    """The two collapsed lists: tests not judged (and why), then the passing tests."""
    passing = _passing(report)
    out = ""
    if missed.tests:
        out += m.not_run(missed.item, [
            {"name": t.name, "where": where(t), "why": headline.deferral_text(t)}
            for t in missed.tests])
    if passing:
        out += m.passing([
            {"name": t.name, "where": where(t), "duration": display.duration(t.duration_ms),
             "cost": display.cost(t.cost_usd) if t.cost_usd else ""} for t in passing],
            len(passing))
    return out


def _short_lists(m: Any, report: Report, missed: headline.NotRun) -> tuple[str, list[str]]:
    """The lines that replace the lists when they do not fit, and what they left out."""
    passing = _passing(report)
    short, what = "", []
    if passing:
        what.append(f"the list of {len(passing)} passing test(s)")
    if missed.tests:
        short += m.not_run_dropped(missed.item)
        what.append(f"the list of {len(missed)} test(s) not judged")
    if passing:
        short += m.passing_dropped(len(passing))
    return short, what


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


def _details(m: Any, found: list[Block]) -> Iterator[str]:
    n_open = 0
    for b in found:
        open_ = b.test.status in ("failed", "error") and n_open < _OPEN_DETAILS
        n_open += open_
        yield m.detail(detail(b, open_))


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The PR comment / job summary markdown, at most `options.max_chars` characters long.

    Rows and details are rendered lazily, only as far as could fit, so a run of thousands of
    tests costs about as much as one that fills the comment once.
    """
    max_chars = options.max_chars
    m = _templates()
    missed = headline.not_run(report)
    found = blocks(report.tests)
    head = (m.marker(report_marker(report)) + m.header(_header(report, missed)) + lint_block(report)
            + selection_block(report) + repeats_block(report))
    footer = corrected_display.comment_block(report) + m.footer(_footer(report))
    diff = diff_block(report)
    if diff:  # the difference leads; the full results follow, collapsed (docs/baseline.md)
        head = m.marker(report_marker(report)) + diff + FULL_OPEN + head.removeprefix(
            m.marker(report_marker(report)))
        footer = FULL_CLOSE + footer
    rows = _upto((m.row(row(b)) for b in found), max_chars)
    details = _upto(_details(m, found), max_chars)
    n = len(found)
    table = [m.table_head(), *rows, "\n"] if rows else []
    complete = len(rows) == n and len(details) == n
    body = len("".join([*table, *details]))
    room = max_chars - len(head) - len(footer) - body
    if complete and room >= 0:
        listed = len(_passing(report)) + len(missed)
        # A listed test takes at least ~30 characters: skip rendering lists that cannot fit.
        lists = _lists(m, report, missed) if 30 * listed <= room else None
        if lists is not None and len(lists) <= room:
            return "".join([head, *table, *details, lists, footer])
    short, dropped = _short_lists(m, report, missed)
    fixed = len(head) + len(footer) + len(short)
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
            dropped.append(f"details of {n - len(kept_details)} of {n} test(s)")
        table = [m.table_head(), *kept_rows, "\n"] if kept_rows else []
        details = kept_details
    return "".join([head, m.truncated(dropped), *table, *details, short, footer])
