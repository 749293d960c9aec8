"""Classify the differences between two surface snapshots, in two channels.

Contract channel: what a client or model relying on the old surface can no longer do
(*breaking*), what it can now do in addition (*additive*), and other contract changes
(*changed*, e.g. an annotation flipped). Description channel: text a model reads changed (a word
diff and the token-size delta), where tool poisoning and rug pulls show. Every kind has a stable
id; docs/lint.md#surface lists them with examples.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from mcptest.surface.matrix import capability_changes
from mcptest.surface.snapshot import KINDS

Severity = Literal["breaking", "additive", "changed"]
Channel = Literal["contract", "description"]

BREAKING = (
    "server-removed", "tool-removed", "resource-removed", "resource-template-removed",
    "prompt-removed", "argument-removed", "argument-renamed", "argument-now-required",
    "required-argument-added", "type-narrowed", "type-changed", "enum-value-removed",
    "output-schema-removed", "output-property-removed", "output-property-retyped",
    "capability-narrowed",
)
ADDITIVE = (
    "server-added", "tool-added", "resource-added", "resource-template-added", "prompt-added",
    "optional-argument-added", "argument-now-optional", "type-widened", "enum-value-added",
    "output-schema-added", "output-property-added", "capability-widened",
)
CHANGED = ("annotation-changed", "mime-type-changed", "description-changed", "title-changed")
SECTION_NOUN = {"tools": "tool", "resources": "resource",
                "resourceTemplates": "resource-template", "prompts": "prompt"}
ALL_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Change:
    """One classified difference."""

    kind: str
    server: str
    section: str
    """`tools`, `resources`, `resourceTemplates`, `prompts` (or `servers`)."""
    item: str
    """The tool/prompt name or resource URI (template) it concerns."""
    message: str
    detail: str | None = None
    """Description channel: the word diff (`[-old-] {+new+}`)."""
    token_delta: int | None = None

    @property
    def severity(self) -> Severity:
        if self.kind in BREAKING:
            return "breaking"
        return "additive" if self.kind in ADDITIVE else "changed"

    @property
    def channel(self) -> Channel:
        return "description" if self.kind in ("description-changed", "title-changed") else (
            "contract")


def estimate_tokens(text: str) -> int:
    """Words and punctuation marks: a tokenizer-free estimate of a text's token cost."""
    return len(_TOKEN.findall(text))


def word_diff(old: str, new: str, context: int = 3) -> str:
    """`[-removed-]` and `{+added+}` words, with `context` unchanged words around each edit."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            same, first, last = a[i1:i2], i1 == 0, i2 == len(a)
            if first and not last and len(same) > context:
                same = ["…", *same[-context:]]
            elif last and not first and len(same) > context:
                same = [*same[:context], "…"]
            elif not first and not last and len(same) > 2 * context:
                same = [*same[:context], "…", *same[-context:]]
            parts.extend(same)
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def types_of(schema: Any) -> frozenset[str]:
    """The JSON types a schema admits (`integer` is inside `number`); all when unsaid."""
    if not isinstance(schema, dict):
        return ALL_TYPES
    declared = schema.get("type")
    found: set[str]
    if isinstance(declared, str):
        found = {declared}
    elif isinstance(declared, list):
        found = {t for t in declared if isinstance(t, str)}
    else:
        alternatives = schema.get("anyOf") or schema.get("oneOf")
        if not isinstance(alternatives, list) or not alternatives:
            return ALL_TYPES
        found = set().union(*(types_of(alt) for alt in alternatives))
    if "number" in found:
        found.add("integer")
    return frozenset(found)


def enum_of(schema: Any) -> set[str] | None:
    """The allowed values (as JSON text) of an `enum`/`const` schema; None when unrestricted."""
    if not isinstance(schema, dict):
        return None
    if isinstance(schema.get("enum"), list):
        return {json.dumps(v, sort_keys=True) for v in schema["enum"]}
    if "const" in schema:
        return {json.dumps(schema["const"], sort_keys=True)}
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(alternatives, list) and alternatives:
        sets = [enum_of(alt) for alt in alternatives if types_of(alt) != {"null"}]
        found = [s for s in sets if s is not None]
        if sets and len(found) == len(sets):
            return set[str]().union(*found)
    return None


class _Differ:
    def __init__(self, server: str, section: str, item: str) -> None:
        self.server, self.section, self.item = server, section, item
        self.changes: list[Change] = []

    def add(self, kind: str, message: str, **extra: Any) -> None:
        self.changes.append(Change(kind, self.server, self.section, self.item, message, **extra))

    def text(self, field: str, old: Any, new: Any, what: str) -> None:
        old_s, new_s = (old if isinstance(old, str) else ""), (new if isinstance(new, str) else "")
        if old_s == new_s:
            return
        delta = estimate_tokens(new_s) - estimate_tokens(old_s)
        kind = "title-changed" if field == "title" else "description-changed"
        self.add(kind, f"{what}: {field} changed ({delta:+d} tokens)",
                 detail=word_diff(old_s, new_s), token_delta=delta)

    def value_schema(self, label: str, old: Any, new: Any) -> None:
        """Input side: narrowing breaks callers, widening is additive."""
        before, after = types_of(old), types_of(new)
        if after < before:
            self.add("type-narrowed", f"{label}: type narrowed from {_types(before)} to "
                                      f"{_types(after)}")
        elif after > before:
            self.add("type-widened", f"{label}: type widened from {_types(before)} to "
                                     f"{_types(after)}")
        elif after != before:
            self.add("type-changed", f"{label}: type changed from {_types(before)} to "
                                     f"{_types(after)}")
        old_enum, new_enum = enum_of(old), enum_of(new)
        if old_enum is not None and new_enum is not None:
            for value in sorted(old_enum - new_enum):
                self.add("enum-value-removed", f"{label}: enum value {value} removed")
            for value in sorted(new_enum - old_enum):
                self.add("enum-value-added", f"{label}: enum value {value} added")
        elif old_enum is None and new_enum is not None:
            self.add("type-narrowed", f"{label}: now restricted to {sorted(new_enum)}")
        elif old_enum is not None and new_enum is None:
            self.add("type-widened", f"{label}: no longer restricted to {sorted(old_enum)}")
        if isinstance(old, dict) and isinstance(new, dict):
            self.text("description", old.get("description"), new.get("description"), label)

    def arguments(self, what: str, old: dict[str, Any], new: dict[str, Any],
                  old_req: set[str], new_req: set[str]) -> None:
        removed = [n for n in old if n not in new]
        added = [n for n in new if n not in old]
        for name in list(removed):  # same schema under a new name: a rename
            twin = next((a for a in added if _bare(old[name]) == _bare(new[a])), None)
            if twin is not None:
                removed.remove(name)
                added.remove(twin)
                self.add("argument-renamed", f"{what}: argument `{name}` renamed to `{twin}`")
        for name in removed:
            self.add("argument-removed", f"{what}: argument `{name}` removed")
        for name in added:
            if name in new_req:
                self.add("required-argument-added", f"{what}: new required argument `{name}`")
            else:
                self.add("optional-argument-added", f"{what}: new optional argument `{name}`")
        for name in (n for n in old if n in new):
            if name in new_req and name not in old_req:
                self.add("argument-now-required", f"{what}: argument `{name}` is now required")
            elif name in old_req and name not in new_req:
                self.add("argument-now-optional", f"{what}: argument `{name}` is now optional")
            self.value_schema(f"{what}: argument `{name}`", old[name], new[name])

    def output(self, what: str, old: Any, new: Any) -> None:
        if old is None and new is None:
            return
        if new is None:
            self.add("output-schema-removed", f"{what}: outputSchema removed")
            return
        if old is None:
            self.add("output-schema-added", f"{what}: outputSchema added")
            return
        old_p, new_p = _properties(old), _properties(new)
        for name in old_p:
            if name not in new_p:
                self.add("output-property-removed", f"{what}: output property `{name}` removed")
            elif types_of(old_p[name]) != types_of(new_p[name]):
                self.add("output-property-retyped",
                         f"{what}: output property `{name}` changed type from "
                         f"{_types(types_of(old_p[name]))} to {_types(types_of(new_p[name]))}")
        for name in new_p:
            if name not in old_p:
                self.add("output-property-added", f"{what}: output property `{name}` added")


def _types(found: frozenset[str]) -> str:
    shown = sorted(found - {"integer"} if "number" in found else found)
    return "any" if found == ALL_TYPES else "|".join(shown)


def _bare(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in schema.items() if k not in ("description", "title")}


def _properties(schema: Any) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def _required(schema: Any) -> set[str]:
    req = schema.get("required") if isinstance(schema, dict) else None
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def _item(d: _Differ, section: str, old: dict[str, Any], new: dict[str, Any]) -> None:
    what = f"{SECTION_NOUN[section]} `{d.item}`"
    for field in ("title", "description"):
        d.text(field, old.get(field), new.get(field), what)
    if section == "tools":
        d.arguments(what, _properties(old.get("inputSchema")), _properties(new.get("inputSchema")),
                    _required(old.get("inputSchema")), _required(new.get("inputSchema")))
        d.output(what, old.get("outputSchema"), new.get("outputSchema"))
        before, after = old.get("annotations") or {}, new.get("annotations") or {}
        for key in sorted(set(before) | set(after)):
            if key == "title":
                d.text("title", before.get(key), after.get(key), f"{what} annotations")
            elif before.get(key) != after.get(key):
                d.add("annotation-changed", f"{what}: annotation {key} changed from "
                                            f"{before.get(key)!r} to {after.get(key)!r}")
    elif section == "prompts":
        old_args = {a["name"]: a for a in old.get("arguments") or [] if "name" in a}
        new_args = {a["name"]: a for a in new.get("arguments") or [] if "name" in a}
        d.arguments(what, old_args, new_args,
                    {n for n, a in old_args.items() if a.get("required")},
                    {n for n, a in new_args.items() if a.get("required")})
    elif old.get("mimeType") != new.get("mimeType"):
        d.add("mime-type-changed", f"{what}: mimeType changed from {old.get('mimeType')!r} "
                                   f"to {new.get('mimeType')!r}")


def diff_servers(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every change from snapshot `old` to `new` (their `servers` objects), in a stable order."""
    changes: list[Change] = []
    for server in sorted(set(old) | set(new)):
        if server not in new:
            changes.append(Change("server-removed", server, "servers", server,
                                  f"server `{server}` is no longer in the snapshot"))
            continue
        if server not in old:
            changes.append(Change("server-added", server, "servers", server,
                                  f"server `{server}` is new in the snapshot"))
            continue
        for section, (key, _) in KINDS.items():
            before = {str(i.get(key)): i for i in old[server].get(section, [])}
            after = {str(i.get(key)): i for i in new[server].get(section, [])}
            noun = SECTION_NOUN[section]
            for name in sorted(set(before) | set(after)):
                d = _Differ(server, section, name)
                if name not in after:
                    d.add(f"{noun}-removed", f"{noun} `{name}` removed")
                elif name not in before:
                    d.add(f"{noun}-added", f"{noun} `{name}` added")
                else:
                    _item(d, section, before[name], after[name])
                changes.extend(d.changes)
        changes += [Change(kind, server, section, item, message) for kind, section, item, message
                    in capability_changes(server, old[server], new[server])]
    return changes
