"""The lint rules that read a server's `tools/list` only: names, schemas, descriptions,
annotations, injection heuristics and provider strict schemas (docs/lint.md).

Each check returns `(rule, level, subject, message)` tuples; the engine places and filters them.
"""

from __future__ import annotations

from typing import Any

from mcp.shared.tool_name_validation import validate_tool_name

from mcptest.lint.injection import scan
from mcptest.lint.provider_schemas import anthropic_problems, openai_problems
from mcptest.lint.rules import Level

Raw = tuple[str, Level, str | None, str]

PROFILES: dict[str, tuple[str, ...]] = {
    "claude-directory": ("title", "readOnlyHint", "destructiveHint"),
    "openai-apps": ("readOnlyHint", "destructiveHint", "openWorldHint"),
    "strict": ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"),
}

MEANINGLESS_WHEN_READ_ONLY = ("destructiveHint", "idempotentHint")
"""The schema's ToolAnnotations: each is "meaningful only when `readOnlyHint == false`", so a
read-only tool that leaves them out has said all there is (docs/lint.md#annotations)."""


def _name_of(tool: dict[str, Any]) -> str:
    return str(tool.get("name", ""))


def tool_names(tools: list[dict[str, Any]]) -> list[Raw]:
    found: list[Raw] = []
    seen: set[str] = set()
    for tool in tools:
        name = _name_of(tool)
        verdict = validate_tool_name(name)
        if not verdict.is_valid or verdict.warnings:
            why = "; ".join(verdict.warnings) or "invalid"
            found.append(("tool-name", "warning", name, f"tool name `{name}`: {why}"))
        if name in seen:
            found.append(("tool-name", "warning", name, f"tool name `{name}` is listed twice"))
        seen.add(name)
    return found


def input_schemas(tools: list[dict[str, Any]]) -> list[Raw]:
    found: list[Raw] = []
    for tool in tools:
        name, schema = _name_of(tool), tool.get("inputSchema")
        if not isinstance(schema, dict):
            found.append(("input-schema", "error", name, f"tool `{name}` has no inputSchema"))
        elif schema.get("type") != "object":
            found.append(("input-schema", "warning", name,
                          f"tool `{name}`: inputSchema is empty or not `type: object`"))
    return found


def descriptions(tools: list[dict[str, Any]], minimum: int) -> list[Raw]:
    found: list[Raw] = []
    for tool in tools:
        name, text = _name_of(tool), tool.get("description")
        text = text.strip() if isinstance(text, str) else ""
        if not text:
            found.append(("description-short", "warning", name, f"tool `{name}` has no "
                                                                 "description"))
        elif len(text) < minimum:
            found.append(("description-short", "warning", name,
                          f"tool `{name}`: description is {len(text)} characters "
                          f"(lint.min_description: {minimum})"))
    return found


def tool_annotations(tools: list[dict[str, Any]], profile: str | None) -> list[Raw]:
    """An explicit profile makes missing hints errors; without one, claude-directory's
    requirements are warnings."""
    wanted = PROFILES[profile or "claude-directory"]
    level: Level = "error" if profile else "warning"
    found: list[Raw] = []
    for tool in tools:
        name = _name_of(tool)
        hints = tool.get("annotations")
        given: dict[str, Any] = hints if isinstance(hints, dict) else {}
        missing = [k for k in wanted if k not in given and not (k == "title" and tool.get("title"))
                   and not (k in MEANINGLESS_WHEN_READ_ONLY and given.get("readOnlyHint") is True)]
        if missing:
            found.append(("annotations", level, name,
                          f"tool `{name}` lacks {', '.join(missing)} "
                          f"(profile {profile or 'claude-directory (default)'})"))
    return found


def injections(tools: list[dict[str, Any]], other_tools: set[str]) -> list[Raw]:
    found: list[Raw] = []
    from mcptest.lint.rules import RULES

    names = frozenset(_name_of(t) for t in tools)
    for tool in tools:
        name = _name_of(tool)
        texts = [tool.get("description"), tool.get("title"),
                 (tool.get("annotations") or {}).get("title")
                 if isinstance(tool.get("annotations"), dict) else None]
        props = (tool.get("inputSchema") or {}).get("properties") \
            if isinstance(tool.get("inputSchema"), dict) else None
        if isinstance(props, dict):
            texts += [p.get("description") for p in props.values() if isinstance(p, dict)]
        text = "\n".join(t for t in texts if isinstance(t, str))
        for hit in scan(text, other_tools - {name}, names - {name}):
            found.append((hit.rule, RULES[hit.rule].level, name,
                          f"tool `{name}`: {RULES[hit.rule].short.lower()}: {hit.evidence}"))
    return found


def provider_schemas(tools: list[dict[str, Any]], providers: set[str]) -> list[Raw]:
    found: list[Raw] = []
    for tool in tools:
        name, schema = _name_of(tool), tool.get("inputSchema")
        for provider, check in (("openai", openai_problems), ("anthropic", anthropic_problems)):
            if provider not in providers:
                continue
            problems = check(name, schema)
            if problems:
                more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
                found.append((f"strict-schema-{provider}", "warning", name,
                              f"tool `{name}`: " + "; ".join(problems[:3]) + more))
    return found
