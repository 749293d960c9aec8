"""`--reporter summary`: the run in a screenful, for a person at a terminal (`make demo` prints
it; `pretty` has every test). The counts, one line per suite file, what was not judged and why
(each reason once, with the tests it held back), the tests that did not pass, one line each,
warnings and the exit code (docs/reports.md).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from mcptest.reporters import DEFAULTS, RenderOptions, display
from mcptest.reporters.escape import shorten, terminal
from mcptest.reporters.repeats_display import counted_text

if TYPE_CHECKING:
    from mcptest.report.models import Report, TestResult

MAX_LISTED = 10
_NO_KEY = re.compile(r"no ([A-Z][A-Z0-9_]*) and no MCPTEST_JUDGE_BASE_URL for judge '([^']*)'")
_NO_MODEL = "no judge model"
_WORD = {"passed": "passed", "failed": "failed", "error": "error", "flaky": "flaky",
         "skipped": "skipped", "deferred": "not judged", "not_yet_available": "not yet available"}
_ORDER = ("failed", "error", "flaky", "skipped", "not_yet_available", "deferred", "passed")


def _safe(text: str, limit: int = 200) -> str:
    """One line of server or model text: escapes and control characters made harmless."""
    return terminal(shorten(" ".join(str(text).split()), limit))


def _texts(test: TestResult) -> list[str]:
    out = [test.message or ""]
    for a in test.assertions:
        out.append(a.message or "")
        out += [v.error or "" for v in (a.judge.votes if a.judge else [])]
    out += [v.error or "" for v in (test.judge.votes if test.judge else [])]
    return [t for t in out if t]


def not_judged(report: Report) -> list[tuple[str, int]]:
    """Each reason judges were not asked, once, with the number of deferred tests it held
    back: a missing key names its variable and the judges that needed it."""
    tests: Counter[str] = Counter()
    models: dict[str, set[str]] = {}
    for t in report.tests:
        if t.status != "deferred":
            continue
        reasons: set[str] = set()
        for text in _texts(t):
            for var, model in _NO_KEY.findall(text):
                reasons.add(var)
                models.setdefault(var, set()).add(model)
            if _NO_MODEL in text:
                reasons.add(_NO_MODEL)
        if not reasons:
            reasons.add(_safe(t.message or "deferred", 120))
        tests.update(reasons)
    out: list[tuple[str, int]] = []
    for reason, n in tests.most_common():
        if reason in models:
            judges = ", ".join(sorted(models[reason])[:4])
            more = ", …" if len(models[reason]) > 4 else ""
            out.append((f"no {reason} (for {judges}{more})", n))
        elif reason == _NO_MODEL:
            out.append(("no judge model: set `model`, the suite's judge.model, "
                        "MCPTEST_JUDGE_MODEL or a provider's key", n))
        else:
            out.append((reason, n))
    return out


def _files(report: Report) -> list[str]:
    by_file: dict[str, Counter[str]] = {}
    for t in report.tests:
        by_file.setdefault(t.suite_file, Counter())[t.status] += 1
    width = min(max((len(f) for f in by_file), default=0), 60)
    return [f"  {_safe(f, 60):<{width}}  " + ", ".join(
        f"{c[s]} {_WORD[s]}" for s in _ORDER if c[s]) for f, c in by_file.items()]


def _first_reason(test: TestResult) -> str:
    failing = next((a for a in test.assertions if a.status == test.status), None)
    text = (failing.message if failing and failing.message else test.message) or test.status
    return _safe(text, 160)


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    s = report.summary
    lines = [f"mcptest {_safe(report.tool.version, 40)} · {len(report.suites)} suite file(s) · "
             f"{s.counts.total} test(s) in {display.duration(s.duration_ms)}",
             ", ".join(display.summary_bits(report)).replace("deferred", "not judged"),
             *_files(report)]
    for server in report.servers:
        if server.status != "ready":
            lines.append(f"server {_safe(server.name, 80)} {server.status}: "
                         f"{_safe(server.error or '', 160)}")
    reasons = not_judged(report)
    if reasons:
        lines.append(f"not judged ({s.counts.deferred} test(s): no failure, and no pass "
                     "either; --require-judge fails them):")
        lines += [f"  {n} test(s): {reason}" for reason, n in reasons]
        lines.append("  a provider's key, or MCPTEST_JUDGE_BASE_URL for an OpenAI-compatible "
                     "gateway, judges them (docs/judges.md)")
    bad = [t for t in report.tests if t.status in ("failed", "error", "flaky", "skipped",
                                                   "not_yet_available")]
    for t in bad[:MAX_LISTED]:
        where = f"{t.location.file}:{t.location.line}" if t.location else t.suite_file
        gap = f" [{t.gap}]" if t.gap else ""
        runs = f" ({counted_text(t.repeat)})" if t.repeat else ""  # `passed 3/5`
        lines.append(f"{_WORD[t.status]}: {_safe(t.name, 100)}{runs}  {_safe(where, 100)}{gap}  "
                     f"{_first_reason(t)}")
    if len(bad) > MAX_LISTED:
        lines.append(f"… and {len(bad) - MAX_LISTED} more (the full report lists every test)")
    for warning in report.warnings[:3]:
        lines.append(f"warning: {_safe(warning, 200)}")
    if len(report.warnings) > 3:
        lines.append(f"… and {len(report.warnings) - 3} more warning(s)")
    lines.append(f"cost {display.cost_line(report)} · {s.judge_calls} judge call(s)")
    if (cassettes := display.cassette_line(report)) is not None:
        lines.append(cassettes)
    lines.append(f"exit {s.exit_code}: {display.exit_text(report)}")
    return "\n".join(lines) + "\n"
