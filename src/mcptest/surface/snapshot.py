"""A server's surface as a stable JSON document: what a pull request must not break silently.

Only the fields that make up the contract or reach the model are kept (names, schemas,
annotations, descriptions), lists are sorted by their identifying key and the JSON is written
with sorted keys, so two snapshots of an unchanged server are byte-identical (docs/lint.md).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcptest.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path

FORMAT = "mcptest-surface/1"
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tools": ("name", ("name", "title", "description", "inputSchema", "outputSchema",
                       "annotations")),
    "resources": ("uri", ("uri", "name", "title", "description", "mimeType")),
    "resourceTemplates": ("uriTemplate", ("uriTemplate", "name", "title", "description",
                                          "mimeType")),
    "prompts": ("name", ("name", "title", "description", "arguments")),
}
"""Section → (identifying key, kept fields)."""


def _prompt_arguments(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    kept = [{k: a[k] for k in ("name", "title", "description", "required") if k in a}
            for a in value if isinstance(a, dict)]
    return sorted(kept, key=lambda a: str(a.get("name", "")))


def normalize_items(section: str, items: list[Any]) -> list[dict[str, Any]]:
    """The kept fields of each item, sorted by the section's identifying key."""
    key, fields = KINDS[section]
    out: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        kept = {f: item[f] for f in fields if f in item and item[f] is not None}
        if "arguments" in kept:
            kept["arguments"] = _prompt_arguments(kept["arguments"])
        out.append(kept)
    return sorted(out, key=lambda i: str(i.get(key, "")))


def server_surface(listed: dict[str, list[Any]]) -> dict[str, list[dict[str, Any]]]:
    """One server's section from its raw list results (`{"tools": [...], ...}`)."""
    return {section: normalize_items(section, listed.get(section, [])) for section in KINDS}


def document(servers: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    return {"format": FORMAT, "servers": servers}


def dumps(doc: dict[str, Any]) -> str:
    """The exact snapshot text: sorted keys, 2-space indent, UTF-8, newline at the end."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load(path: Path) -> tuple[dict[str, Any], str]:
    """A snapshot file and its text; a clear error when it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{path}: cannot read the snapshot: {e.strerror or e}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(
        doc.get("servers"), dict
    ):
        raise UsageError(f"{path}:1:1: not an mcptest surface snapshot "
                         f"(expected \"format\": \"{FORMAT}\" and a \"servers\" object)")
    return doc, text
