"""Suppression (`lint: {ignore: [...]}`) and the expected-failures file (docs/lint.md).

An ignored finding disappears (and is counted). An expected finding stays visible but does not
fail the run; an expected entry that matches nothing is itself a finding, so stale entries cannot
linger and later hide a regression.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcptest.errors import SourcePos, SuiteError, SuiteErrors
from mcptest.lint.rules import RULES
from mcptest.report.models import LintFinding, Location
from mcptest.suite.load import LoadedSuite, display_path
from mcptest.suite.models import LintIgnore, LintSettings, RemoteServer
from mcptest.suite.positions import parse_yaml


@dataclass(frozen=True)
class Expected:
    rule: str
    server: str | None
    tool: str | None
    location: Location


def check_rule_ids(loaded: LoadedSuite, settings: LintSettings) -> None:
    """Unknown rule ids in `lint.ignore` are suite errors (a typo would silence nothing), and so
    are servers in `lint.era` the suite does not declare (a typo would check nothing)."""
    errors: list[SuiteError] = [
        SuiteError(f"lint.era names `{name}`, which is not a server of this suite",
                   loaded.key_pos("lint", "era", name), "lint.era")
        for name in settings.era or {} if name not in loaded.suite.servers]
    conformance = settings.conformance_settings()
    for name in (conformance.auth or {}) if conformance else {}:
        if not isinstance(loaded.suite.servers.get(name), RemoteServer):
            errors.append(SuiteError(
                f"lint.conformance.auth names `{name}`, which is not an HTTP server of this suite",
                loaded.key_pos("lint", "conformance", "auth", name), "lint.conformance.auth"))
    for i, entry in enumerate(settings.ignore):
        rule = entry if isinstance(entry, str) else entry.rule
        if rule not in RULES:
            key = ("lint", "ignore", i) if isinstance(entry, str) else ("lint", "ignore", i, "rule")
            errors.append(SuiteError(f"unknown lint rule `{rule}` (see docs/lint.md)",
                                     loaded.pos(*key), "lint.ignore"))
    if errors:
        raise SuiteErrors(errors)


def ignored(finding: LintFinding, settings: LintSettings) -> bool:
    for entry in settings.ignore:
        if isinstance(entry, str):
            if entry == finding.rule:
                return True
        elif isinstance(entry, LintIgnore) and entry.rule == finding.rule and (
            not entry.tools or finding.subject in entry.tools
        ):
            return True
    return False


def load_expected(loaded: LoadedSuite, settings: LintSettings) -> list[Expected]:
    """The entries of the expected-failures file (relative to the suite file)."""
    if settings.expected_failures is None:
        return []
    path = loaded.path.parent / settings.expected_failures
    shown = display_path(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise SuiteErrors([SuiteError(f"cannot read the expected-failures file {shown}: "
                                      f"{e.strerror or e}", loaded.pos("lint",
                                                                       "expected_failures"),
                                      "lint.expected_failures")]) from None
    data, positions, errors = parse_yaml(text, shown)
    entries: Any = data.get("expected")
    if not isinstance(entries, list):
        errors.append(SuiteError("expected a top-level `expected:` list of {rule, server, tool}",
                                 SourcePos(shown, 1, 1), "expected"))
        raise SuiteErrors(errors)
    out: list[Expected] = []
    for i, entry in enumerate(entries):
        pos = positions.value(("expected", i))
        rule = entry.get("rule") if isinstance(entry, dict) else None
        if not isinstance(rule, str) or rule not in RULES:
            errors.append(SuiteError(f"unknown or missing lint rule {rule!r}", pos,
                                     f"expected[{i}].rule"))
            continue
        out.append(Expected(rule, entry.get("server"), entry.get("tool"),
                            Location(file=shown, line=pos.line, column=pos.column)))
    if errors:
        raise SuiteErrors(errors)
    return out


def apply_expected(findings: list[LintFinding], expected: list[Expected]) -> list[LintFinding]:
    """Mark expected findings; add one `expected-failure-stale` finding per unmatched entry."""
    out: list[LintFinding] = []
    used: set[int] = set()
    for finding in findings:
        hit = next((i for i, e in enumerate(expected)
                    if e.rule == finding.rule and e.server in (None, finding.server)
                    and e.tool in (None, finding.subject)), None)
        if hit is not None:
            used.add(hit)
            finding = finding.model_copy(update={"expected": True})
        out.append(finding)
    for i, entry in enumerate(expected):
        if i not in used:
            who = " ".join(x for x in (entry.server, entry.tool) if x)
            out.append(LintFinding(
                rule="expected-failure-stale", level="error", location=entry.location,
                server=entry.server, subject=entry.tool,
                message=f"expected failure `{entry.rule}`{' for ' + who if who else ''} no "
                        "longer occurs: remove the entry"))
    return out
