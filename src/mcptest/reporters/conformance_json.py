"""`conformance`: the conformance checks in the official suite's `checks.json` format
(modelcontextprotocol/conformance, `src/types.ts` `ConformanceCheck`), so a server's CI can show
mcptest's checks beside the official suite's (docs/conformance.md#results).

One object per check and server: `id` (the rule, with `@server` when the report has several
servers), `name`, `description`, `status` (SUCCESS, FAILURE, SKIPPED), `timestamp`,
`specReferences` ({id, url}), `details` ({server, findings} or {server, reason}) and, on a
failure, `errorMessage` (the first finding).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcptest.reporters import DEFAULTS, RenderOptions

if TYPE_CHECKING:
    from mcptest.report.models import Report

STATUS = {"passed": "SUCCESS", "failed": "FAILURE", "skipped": "SKIPPED"}


def checks(report: Report) -> list[dict[str, Any]]:
    """The report's conformance checks as ConformanceCheck objects."""
    lint = report.lint
    if lint is None:
        return []
    rules = {r.id: r for r in lint.rules}
    several = len({c.server for c in lint.checks}) > 1
    out: list[dict[str, Any]] = []
    for check in lint.checks:
        info = rules.get(check.rule)
        found = [f.message for f in lint.findings
                 if f.rule == check.rule and f.server == check.server]
        item: dict[str, Any] = {
            "id": f"{check.rule}@{check.server}" if several else check.rule,
            "name": info.name if info else check.rule,
            "description": info.help if info else check.rule,
            "status": STATUS[check.status],
            "timestamp": report.finished_at,
        }
        if info is not None and info.spec is not None:
            item["specReferences"] = [{"id": info.spec, "url": info.spec_url}]
        details: dict[str, Any] = {"server": check.server}
        if check.status == "skipped":
            details["reason"] = check.note
        elif found:
            details["findings"] = found
        item["details"] = details
        if check.status == "failed" and found:
            item["errorMessage"] = found[0]
        out.append(item)
    return out


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """A JSON array (empty for a report without conformance checks)."""
    return json.dumps(checks(report), indent=2, ensure_ascii=False) + "\n"
