"""Show surface changes as text, Markdown or JSON, and decide whether they fail.

Breaking changes come first, then additive ones, then other contract changes, then the
description channel (docs/lint.md#surface). Names and descriptions come from a server or from a
snapshot file read back: the text format escapes them for the terminal, the Markdown one makes
them inert (`mcptest.reporters.escape`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.reporters.escape import md_code, md_inline, terminal

if TYPE_CHECKING:
    from mcptest.surface.diff import Change

ORDER = {"breaking": 0, "additive": 1, "changed": 2}


def ordered(changes: list[Change]) -> list[Change]:
    return sorted(changes, key=lambda c: (c.channel == "description", ORDER[c.severity]))


def fails(changes: list[Change], policy: str) -> bool:
    """`breaking`: any breaking change fails; `any`: any change at all; `never`: nothing."""
    if policy == "never":
        return False
    if policy == "any":
        return bool(changes)
    return any(c.severity == "breaking" for c in changes)


def changes_json(changes: list[Change]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in ordered(changes):
        row: dict[str, Any] = {"kind": c.kind, "severity": c.severity, "channel": c.channel,
                               "server": c.server, "section": c.section, "item": c.item,
                               "message": c.message}
        if c.detail is not None:
            row["wordDiff"] = c.detail
        if c.token_delta is not None:
            row["tokenDelta"] = c.token_delta
        out.append(row)
    return out


def _counts(changes: list[Change]) -> str:
    breaking = sum(c.severity == "breaking" for c in changes)
    additive = sum(c.severity == "additive" for c in changes)
    text = sum(c.channel == "description" for c in changes)
    other = len(changes) - breaking - additive - text
    return (f"{breaking} breaking, {additive} additive, {other} other contract, "
            f"{text} description change(s)")


def changes_text(changes: list[Change]) -> str:
    if not changes:
        return "surface: no changes\n"
    lines = [f"surface: {_counts(changes)}"]
    for c in ordered(changes):
        label = "description" if c.channel == "description" else c.severity
        lines.append(f"  {label:<11} {c.kind:<24} {terminal(c.server)}: {terminal(c.message)}")
        if c.detail:
            lines.append(f"  {'':<11} {'':<24} {terminal(c.detail)}")
    return "\n".join(lines) + "\n"


def changes_markdown(changes: list[Change]) -> str:
    if not changes:
        return "**Surface:** no changes.\n"
    rows = ["**Surface:** " + _counts(changes), "",
            "| | change | server | what |", "|---|---|---|---|"]
    icon = {"breaking": "❌", "additive": "➕", "changed": "✏️"}
    for c in ordered(changes):
        mark = "📝" if c.channel == "description" else icon[c.severity]
        what = md_inline(c.message, 400) + (f"<br>{md_code(c.detail, 400)}" if c.detail else "")
        rows.append(f"| {mark} | {c.kind} | {md_inline(c.server, 80)} | {what} |")
    return "\n".join(rows) + "\n"
