"""Step outputs (`$GITHUB_OUTPUT`) and the job summary (`$GITHUB_STEP_SUMMARY`).

Outputs use the heredoc form `name<<DELIM` with a fresh random delimiter, so no value (even one
with newlines or a line that looks like another output) can end the block early. GitHub rejects a
step summary over 1 MiB, so ours is cut to fit beside whatever earlier steps left in the file.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.report.models import Report

#: GitHub's limit for one step's summary file.
SUMMARY_LIMIT_BYTES = 1024 * 1024
TRUNCATION_NOTE = (
    "\n\n> **Summary truncated** to stay within GitHub's 1 MiB step-summary limit; "
    "the full results are in the JSON report and the other report files.\n"
)


def format_outputs(values: Mapping[str, str]) -> str:
    """The text to append to `$GITHUB_OUTPUT` for these name → value pairs."""
    parts: list[str] = []
    for name, value in values.items():
        delimiter = f"ghadelimiter_{secrets.token_hex(12)}"
        while delimiter in value:  # pragma: no cover - 96 random bits
            delimiter = f"ghadelimiter_{secrets.token_hex(12)}"
        parts.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return "".join(parts)


def parse_outputs(text: str) -> dict[str, str]:
    """Read an outputs file back (both `name=value` and heredoc forms), as the runner does."""
    values: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise ValueError(f"output {name!r}: delimiter {delimiter!r} never closes")
            values[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        i += 1
    return values


def write_outputs(path: str | Path, values: Mapping[str, str]) -> None:
    """Append the outputs to the runner's file (it may already hold other steps' lines)."""
    with open(path, "a", encoding="utf-8", newline="\n") as handle:
        handle.write(format_outputs(values))


def fit_summary(markdown: str, room: int = SUMMARY_LIMIT_BYTES) -> str:
    """The markdown, cut at a line boundary with a note when it would pass `room` bytes."""
    if len(markdown.encode("utf-8")) <= room:
        return markdown
    budget = room - len(TRUNCATION_NOTE.encode("utf-8"))
    if budget <= 0:
        return ""
    cut = markdown.encode("utf-8")[: max(budget, 0)].decode("utf-8", errors="ignore")
    newline = cut.rfind("\n")
    if newline > len(cut) // 2:
        cut = cut[:newline]
    return cut + TRUNCATION_NOTE


def write_summary(path: str | Path, markdown: str) -> None:
    """Append the markdown to the step summary, within what the 1 MiB limit leaves."""
    target = Path(path)
    used = target.stat().st_size if target.exists() else 0
    text = fit_summary(markdown + "\n", SUMMARY_LIMIT_BYTES - used)
    with open(target, "a", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def era_output(report: Report | None) -> str:
    """`name=era` per ready server (`legacy`, `modern`, `dual-era`), comma-separated.

    `mcptest lint` probes the era; a plain run knows only the negotiated version, so there a
    2026-07-28 server reads `modern` and any handshake version `legacy` (docs/lint.md#era).
    """
    if report is None:
        return ""
    parts = []
    for server in report.servers:
        if server.status != "ready" or server.protocol_version is None:
            continue
        era = server.era or ("modern" if server.protocol_version >= "2026" else "legacy")
        parts.append(f"{server.name}={era}")
    return ",".join(parts)
