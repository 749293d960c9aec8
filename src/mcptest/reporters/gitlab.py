"""`gitlab`: a GitLab Code Quality report (a JSON array of issues) for merge-request widgets.

The same findings as SARIF (see `sarif.findings`), so both formats name the same rules. Severity:
failed → major, error → critical, skipped and not_yet_available → minor, deferred and an
escalated jury → info. The fingerprint is the sha256 of rule, file and line plus the test name,
since two tests may sit on one line (a matrix eval's cells do) and GitLab merges equal prints.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from mcptest.reporters import DEFAULTS, RenderOptions
from mcptest.reporters.sarif_findings import RULES, Finding, findings

if TYPE_CHECKING:
    from mcptest.report.models import Report

_SEVERITY = {
    "failed": "major",
    "flaky": "major",
    "error": "critical",
    "skipped": "minor",
    "not_yet_available": "minor",
    "deferred": "info",
    "passed": "info",  # only escalated juries reach here
}
_MAX_DESCRIPTION = 2000


def fingerprint(f: Finding) -> str:
    """sha256 over rule, file, line and test name, NUL-separated so fields cannot run together."""
    key = "\0".join([f.rule, f.file, str(f.line), f.test.name])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _issue(f: Finding) -> dict[str, Any]:
    description = " ".join(f.message.split())
    if len(description) > _MAX_DESCRIPTION:
        description = description[:_MAX_DESCRIPTION] + "…"
    short = RULES.get(f.rule, ("Check failed", "", "error"))[0]
    return {
        "type": "issue",
        "description": description,
        "content": {"body": f"{short}. Test `{f.test.id}`, status {f.test.status}."},
        "check_name": f.rule,
        "categories": ["Bug Risk"],
        "fingerprint": fingerprint(f),
        "severity": _SEVERITY[f.test.status],
        "location": {"path": f.file.removeprefix("./"), "lines": {"begin": f.line}},
    }


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The Code Quality array; `[]` when every test passed."""
    return json.dumps([_issue(f) for f in findings(report)], indent=2, ensure_ascii=False) + "\n"
