"""One collapsed log group per server after the run (docs/action.md, "What the log shows").

Servers run concurrently, so the live per-test lines interleave; the groups put each server's
results together. Everything inside a group is report text (test names, messages, the server's
stderr), so it is printed inside a stop-commands block; only the group title is ours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from mcptest.action.commands import command, stop_commands

if TYPE_CHECKING:
    from mcptest.report.models import Report, TestResult

_MARK = {"passed": "✓", "failed": "✗", "error": "!", "deferred": "~"}


def _line(t: TestResult) -> str:
    text = f"{_MARK.get(t.status, '-')} {t.status:<8} {' '.join(t.name.split())} " \
           f"({t.duration_ms:.0f} ms)"
    return f"{text}: {' '.join(t.message.split())}" if t.message else text


def write_server_groups(report: Report, out: TextIO) -> None:
    """`::group::` per server (and one for rows without a server), each with its tests."""
    keyed: dict[tuple[str, str | None], list[TestResult]] = {}
    for t in report.tests:
        keyed.setdefault((t.suite_file, t.server), []).append(t)
    stderr = {(s.suite_file, s.name): s.stderr_tail or s.error for s in report.servers}
    for (suite, server), tests in keyed.items():
        bad = sum(t.status in ("failed", "error") for t in tests)
        title = f"mcptest · {suite} · {server or 'evals and agents'}: {len(tests)} test(s)"
        title += f", {bad} failed" if bad else ", all passed" if all(
            t.status == "passed" for t in tests) else ""
        out.write(command("group", title) + "\n")
        with stop_commands(out):
            for t in tests:
                out.write(_line(t) + "\n")
            if tail := stderr.get((suite, server or "")):
                out.write("server output (tail):\n" + tail.rstrip() + "\n")
        out.write("::endgroup::\n")
        out.flush()
