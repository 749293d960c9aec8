"""`junit`: JUnit XML for CI test tabs, valid against the common (windyroad) JUnit XSD.

That schema is strict: a `<testcase>` has only name/classname/time and at most one of
`<failure>`, `<error>`, `<skipped>`; `properties`, `system-out` and `system-err` live on the
`<testsuite>`. So per-test cost and judge data are suite properties named `<test>.<key>`, and
deferrals and escalations are notes in the suite's `system-out`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from mcptest.reporters import DEFAULTS, RenderOptions
from mcptest.reporters.repeats_display import counted_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from mcptest.report.models import JudgeDetail, JudgeVote, Report, Summary, TestResult

_XML_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_TIMESTAMP = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})")
_MAX_TEXT = 20_000
"""Characters kept of one free text (stderr tails, long messages) inside the XML."""


def xml_text(value: object, limit: int = _MAX_TEXT) -> str:
    """Text safe for XML 1.0: colour codes and characters XML forbids removed, length capped."""
    text = _XML_FORBIDDEN.sub("", _ANSI.sub("", str(value)))
    if len(text) > limit:
        text = text[:limit] + f"… [{len(text) - limit} more characters]"
    return text


def _token(value: str) -> str:
    """An `xs:token` value: no line breaks or tabs, no runs of spaces, never empty."""
    return " ".join(xml_text(value, 1000).split()) or "-"


def _seconds(ms: float) -> str:
    return f"{max(ms, 0.0) / 1000:.3f}"


def _timestamp(iso: str) -> str:
    """The XSD's dateTime pattern takes no fraction and no zone: `2026-11-22T02:00:00`."""
    match = _TIMESTAMP.match(iso)
    return match.group(1) if match else "1970-01-01T00:00:00"


def _fails(test: TestResult) -> bool:
    """Failed, or flaky below its `min_pass_rate` (a `<failure>`; a tolerated flake passes)."""
    return test.status == "failed" or (
        test.status == "flaky" and not (test.repeat is not None and test.repeat.met))


def _first_problem(test: TestResult) -> tuple[str, str]:
    """(type, message) of what made the test not pass: first non-passing assertion, else test."""
    for a in test.assertions:
        if a.status == test.status and a.status != "passed":
            text = a.message or a.user_message or f"{a.matcher} on {a.target}: {a.status}"
            return f"mcptest/{a.matcher}", text
    if test.judge is not None and test.status == "failed":
        return f"mcptest/{test.judge.kind}", test.message or "the judges failed it"
    return f"mcptest/{test.gap or test.status}", test.message or test.status


def _detail(test: TestResult) -> str:
    """Body of a failure/error/skipped element: every non-passing assertion and server output."""
    lines = [f"{test.id} ({test.location.file}:{test.location.line})"]
    if test.message:
        lines.append(test.message)
    for a in test.assertions:
        if a.status == "passed":
            continue
        where = f"{a.location.file}:{a.location.line}" if a.location else test.location.file
        lines.append(f"[{a.status}] #{a.index} {a.matcher} on {a.target} at {where}")
        lines.extend(f"  {text}" for text in (a.user_message, a.message) if text)
        if a.expected is not None or a.actual is not None:
            lines.append(f"  expected: {a.expected!r}")
            lines.append(f"  actual:   {a.actual!r}")
    for judge in [test.judge] + [a.judge for a in test.assertions]:
        if judge is None:
            continue
        for v in judge.votes:
            verdict = v.error or _answer(v)
            lines.append(f"  juror {v.model}: {verdict}. {v.reason or ''}".rstrip())
        for c in judge.criteria:
            lines.append(f"  criterion {c.name}: {c.status} (score {c.score}) {c.reason or ''}")
    if test.server_stderr:
        lines.append("server stderr:")
        lines.append(test.server_stderr)
    return xml_text("\n".join(lines))


def _answer(v: JudgeVote) -> str:
    """A juror's vote as it gave it: its label (`pass`/`fail` in the boolean mode), its score
    in the jury's own units, or 0..1; `abstained` only when it abstained."""
    if v.abstained:
        return "abstained"
    if v.label is not None:
        return f"answered {v.label}"
    if v.value is not None:
        return f"score {v.value:g}"
    return "abstained" if v.score is None else f"score {v.score}"


def _score(judge: JudgeDetail) -> float | None:
    """The score in the unit of the threshold next to it: a numeric jury's `score_range`
    (docs/jury.md, "Verdict modes"), else 0..1."""
    if judge.verdict_kind == "numeric" and judge.verdict is not None:
        return float(judge.verdict)
    return judge.score


def _properties(
    tests: Iterable[TestResult], suite: ET.Element, server: str, summary: Summary
) -> None:
    props = ET.SubElement(suite, "properties")

    def prop(name: str, value: object) -> None:
        ET.SubElement(props, "property", name=_token(name), value=xml_text(value, 1000))

    prop("mcptest.server", server)
    prop("mcptest.run.cost_usd", f"{summary.cost_usd:.6f}")
    if summary.max_cost_usd is not None:
        prop("mcptest.run.max_cost_usd", f"{summary.max_cost_usd:.6f}")
    prop("mcptest.run.cache_hits", summary.cache_hits)
    prop("mcptest.run.deferred", summary.counts.deferred)
    if summary.run_agreement is not None:
        prop("mcptest.run.agreement", f"{summary.run_agreement:.3f}")
    for t in tests:
        if t.cost_usd:
            prop(f"{t.name}.cost_usd", f"{t.cost_usd:.6f}")
        if t.cache_hits:
            prop(f"{t.name}.cache_hits", t.cache_hits)
        if t.repeat is not None:
            prop(f"{t.name}.pass_rate", counted_text(t.repeat).removeprefix("passed "))
        if t.baseline is not None:
            prop(f"{t.name}.baseline", t.baseline.change)
        for judge in _judges(t):
            if (score := _score(judge)) is not None:
                prop(f"{t.name}.{judge.kind}.score", f"{score:.3f}")
            if judge.verdict_kind is not None:
                prop(f"{t.name}.{judge.kind}.verdict_kind", judge.verdict_kind)
                prop(f"{t.name}.{judge.kind}.verdict",
                     "none" if judge.verdict is None else judge.verdict)
            if judge.threshold is not None:
                prop(f"{t.name}.{judge.kind}.threshold", f"{judge.threshold:.3f}")
            if judge.jury is not None:
                agreement = judge.jury.agreement
                prop(f"{t.name}.{judge.kind}.agreement",
                     "null" if agreement is None else f"{agreement:.3f}")
                prop(f"{t.name}.{judge.kind}.confidence", judge.jury.confidence)
                prop(f"{t.name}.{judge.kind}.escalate", str(judge.jury.escalate).lower())


def _notes(tests: Iterable[TestResult]) -> str:
    notes: list[str] = []
    for t in tests:
        if t.status == "deferred":
            why = t.message or "no judge available"
            notes.append(f"DEFERRED {t.name}: {why} (not measured: not a pass, not a failure)")
        if any(j.jury is not None and j.jury.escalate for j in _judges(t)):
            notes.append(f"ESCALATED {t.name}: the jury's agreement is low; review by hand")
        if t.cache_hits:
            notes.append(f"CACHED {t.name}: {t.cache_hits} judge verdict(s) from the cache")
        if t.status == "flaky":
            notes.append(f"FLAKY {t.name}: {t.message or 'repetitions disagreed'}")
    return xml_text("\n".join(notes))


def _judges(test: TestResult) -> list[JudgeDetail]:
    return [j for j in [test.judge, *(a.judge for a in test.assertions)] if j is not None]


def _testcase(suite: ET.Element, test: TestResult) -> None:
    classname = test.suite_file.replace("/", ".").removesuffix(".yaml").removesuffix(".yml")
    case = ET.SubElement(suite, "testcase", name=_token(test.name),
                         classname=_token(f"{classname}.{test.kind}"),
                         time=_seconds(test.duration_ms))
    kind, message = _first_problem(test)
    if _fails(test):
        child = ET.SubElement(case, "failure", message=xml_text(message, 1000), type=kind)
    elif test.status == "error":
        child = ET.SubElement(case, "error", message=xml_text(message, 1000), type=kind)
    elif test.status in ("skipped", "not_yet_available"):
        label = "NotYetAvailable: " if test.status == "not_yet_available" else ""
        text = message if message.startswith("NotYetAvailable") else label + message
        child = ET.SubElement(case, "skipped", message=xml_text(text, 1000))
    else:
        return
    child.text = _detail(test)


def _groups(report: Report) -> list[tuple[str, str, list[TestResult]]]:
    """Tests grouped by (suite file, server), in order of first appearance."""
    groups: dict[tuple[str, str], list[TestResult]] = {}
    for t in report.tests:
        groups.setdefault((t.suite_file, t.server or "-"), []).append(t)
    return [(file, server, tests) for (file, server), tests in groups.items()]


def _lint_suite(root: ET.Element, report: Report, index: int) -> None:
    """`mcptest lint`: a test case per conformance check and server (docs/conformance.md), and
    one per other rule with an error-level finding; warnings and notes are left to SARIF."""
    lint = report.lint
    if lint is None or not (lint.checks or lint.findings):
        return
    cases: list[tuple[str, str, str, list[str], str | None]] = []  # name, class, status, ...
    for check in lint.checks:
        found = [f.message for f in lint.findings if f.rule == check.rule
                 and f.server == check.server and not f.expected]
        status = "failed" if found else "skipped" if check.status == "skipped" else "passed"
        cases.append((check.rule, f"conformance.{check.server}", status, found, check.note))
    checked = {(c.rule, c.server) for c in lint.checks}
    other: dict[tuple[str, str], list[str]] = {}
    for f in lint.findings:
        if f.level == "error" and not f.expected and (f.rule, f.server or "-") not in checked:
            other.setdefault((f.rule, f.server or "-"), []).append(f.message)
    cases += [(rule, f"lint.{server}", "failed", found, None)
              for (rule, server), found in other.items()]
    suite = ET.SubElement(
        root, "testsuite", name="mcptest lint", timestamp=_timestamp(report.started_at),
        hostname="localhost", tests=str(len(cases)),
        failures=str(sum(c[2] == "failed" for c in cases)), errors="0",
        skipped=str(sum(c[2] == "skipped" for c in cases)),
        time=_seconds(report.summary.duration_ms), package="lint", id=str(index))
    props = ET.SubElement(suite, "properties")  # the XSD wants it first, with one entry
    ET.SubElement(props, "property", name="lint.suppressed", value=str(lint.suppressed))
    for name, classname, status, found, note in cases:
        case = ET.SubElement(suite, "testcase", name=_token(name), classname=_token(classname),
                             time="0.000")
        if status == "failed":
            child = ET.SubElement(case, "failure", message=xml_text(found[0], 1000),
                                  type=f"mcptest/lint/{name}")
            child.text = xml_text("\n".join(found))
        elif status == "skipped":
            ET.SubElement(case, "skipped", message=xml_text(note or "skipped", 1000))
    ET.SubElement(suite, "system-out").text = ""
    ET.SubElement(suite, "system-err").text = ""


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """One `<testsuites>` document; deterministic for a given report."""
    root = ET.Element("testsuites")
    stderr_by_server = {s.name: s.stderr_tail or s.error or "" for s in report.servers}
    for index, (file, server, tests) in enumerate(_groups(report)):
        suite = ET.SubElement(
            root, "testsuite", name=_token(f"{file} [{server}]"),
            timestamp=_timestamp(report.started_at), hostname="localhost",
            tests=str(len(tests)),
            failures=str(sum(_fails(t) for t in tests)),
            errors=str(sum(t.status == "error" for t in tests)),
            skipped=str(sum(t.status in ("skipped", "not_yet_available") for t in tests)),
            time=_seconds(sum(t.duration_ms for t in tests)),
            package=_token(file), id=str(index),
        )
        _properties(tests, suite, server, report.summary)
        for t in tests:
            _testcase(suite, t)
        ET.SubElement(suite, "system-out").text = _notes(tests)
        ET.SubElement(suite, "system-err").text = xml_text(stderr_by_server.get(server, ""))
    _lint_suite(root, report, len(root))
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
