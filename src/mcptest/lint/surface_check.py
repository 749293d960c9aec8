"""The suite-level `surface: {snapshot: path}` check: today's surface against the committed
snapshot, each change a finding located on the snapshot file (docs/lint.md#surface).

`--update` (or a missing snapshot with `--update`) rewrites the file instead; a missing snapshot
without it is an error finding, so a forgotten file never passes silently.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcptest.report.models import LintFinding, Location
from mcptest.suite.load import LoadedSuite, display_path
from mcptest.surface.diff import Change, diff_servers
from mcptest.surface.snapshot import KINDS, dumps, load

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet
    from pathlib import Path

    from mcptest.lint.rules import Level
    from mcptest.suite.models import SurfaceCheck


def snapshot_path(loaded: LoadedSuite, check: SurfaceCheck) -> Path:
    return loaded.path.parent / check.snapshot


def level_for(change: Change, fail_on: str) -> Level:
    if fail_on == "any":
        return "error"
    if change.severity == "breaking":
        return "error" if fail_on == "breaking" else "warning"
    return "warning" if change.channel == "description" else "note"


def locate(text: str, change: Change) -> int:
    """The snapshot line of the changed item (or of its server, or 1)."""
    lines = text.splitlines()
    server_line = next((i for i, ln in enumerate(lines)
                        if ln.strip().startswith(json.dumps(change.server) + ":")), None)
    if server_line is None:
        return 1
    if change.section in KINDS:
        key = KINDS[change.section][0]
        needle = f"{json.dumps(key)}: {json.dumps(change.item, ensure_ascii=False)}"
        section_line = next((i for i in range(server_line, len(lines))
                             if lines[i].strip().startswith(json.dumps(change.section) + ":")),
                            server_line)
        for i in range(section_line, len(lines)):
            if needle in lines[i]:
                return i + 1
        return section_line + 1
    return server_line + 1


def surface_findings(
    loaded: LoadedSuite, check: SurfaceCheck, current: dict[str, Any], *, update: bool,
    unavailable: AbstractSet[str] = frozenset(),
) -> tuple[list[LintFinding], list[Change]]:
    """Findings (and the raw changes) of the check; with `update`, rewrite the snapshot.

    Servers in `unavailable` (not ready) are left out of the comparison: their failure is
    reported on its own, not as a removal."""
    path = snapshot_path(loaded, check)
    shown = display_path(path)
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(dumps(current).encode("utf-8"))
        return [], []
    if not path.is_file():
        pos = loaded.pos("surface", "snapshot")
        return [LintFinding(
            rule="surface-snapshot-missing", level="error",
            location=Location(file=pos.file, line=pos.line, column=pos.column),
            message=f"snapshot {shown} does not exist: run `mcptest lint --update` to write it",
        )], []
    old, text = load(path)
    before = {k: v for k, v in old["servers"].items() if k not in unavailable}
    changes = diff_servers(before, current["servers"])
    findings = [
        LintFinding(rule=f"surface/{c.kind}", level=level_for(c, check.fail_on),
                    message=c.message + (f": {c.detail}" if c.detail else ""),
                    server=c.server, subject=c.item if c.section != "servers" else None,
                    location=Location(file=shown, line=locate(text, c), column=1))
        for c in changes
    ]
    return findings, changes
