"""`tools-called`: which tools an agent called, in what order, with what arguments
(docs/agents.md#trajectories).

The value is the `tool_calls` list of an agent row (each `{name, args, …}`). A failure shows the
expected patterns beside the actual calls, aligned, so the first divergence is visible.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pydantic import BaseModel

from mcptest.grade.deterministic import evaluate
from mcptest.grade.verdicts import Verdict, json_equal, shorten_json
from mcptest.suite.models.trajectory import CallPattern, CountBound, ToolsCalledMatcher

Pattern = CallPattern | str
_WIDTH = 40


def _pattern(p: Pattern) -> CallPattern:
    return CallPattern(name=p) if isinstance(p, str) else p


def _arg_ok(expected: Any, actual: Any) -> bool:
    if isinstance(expected, BaseModel):
        return evaluate(expected, actual).passed
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _arg_ok(v, actual[k]) for k, v in expected.items())
    return json_equal(expected, actual)


def matches(p: Pattern, call: Any) -> bool:
    pat = _pattern(p)
    if not isinstance(call, dict) or call.get("name") != pat.name:
        return False
    if pat.args is None:
        return True
    args = call.get("args")
    return isinstance(args, dict) and all(
        k in args and _arg_ok(v, args[k]) for k, v in pat.args.items())


def _show_pattern(p: Pattern) -> str:
    pat = _pattern(p)
    if not pat.args:
        return pat.name
    parts = []
    for k, v in pat.args.items():
        shown = (json.dumps(v.model_dump(by_alias=True, mode="json"), ensure_ascii=False)
                 if isinstance(v, BaseModel) else json.dumps(v, ensure_ascii=False))
        parts.append(f"{json.dumps(k)}: {shown}")
    return f"{pat.name} {{{', '.join(parts)}}}"


def _show_call(call: Any) -> str:
    if not isinstance(call, dict):
        return shorten_json(call, 60)
    args = call.get("args")
    text = " " + _cut(json.dumps(args, ensure_ascii=False), 60) if args not in (None, {}) else ""
    return f"{call.get('name')}{text}"


def _cut(text: str, width: int = _WIDTH) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _table(rows: list[tuple[str, str, str]]) -> str:
    """`mark expected │ actual` lines; `mark` is ✓ or ✗."""
    lines = [f"    {'expected':<{_WIDTH}} │ actual"]
    lines += [f"  {m} {_cut(e):<{_WIDTH}} │ {a}" for m, e, a in rows]
    return "\n".join(lines)


def _exact(patterns: list[Pattern], calls: list[Any]) -> str | None:
    n = max(len(patterns), len(calls))
    ok = len(patterns) == len(calls) and all(matches(p, c) for p, c in
                                              zip(patterns, calls, strict=True))
    if ok:
        return None
    rows = []
    for i in range(n):
        p = patterns[i] if i < len(patterns) else None
        c = calls[i] if i < len(calls) else None
        good = p is not None and c is not None and matches(p, c)
        rows.append(("✓" if good else "✗", f"{i + 1}. {_show_pattern(p)}" if p else "(none)",
                     f"{i + 1}. {_show_call(c)}" if c is not None else "(no call)"))
    return "exact: the calls differ\n" + _table(rows)


def _in_order(patterns: list[Pattern], calls: list[Any]) -> str | None:
    rows, at, failed = [], 0, False
    for p in patterns:
        hit = next((k for k in range(at, len(calls)) if matches(p, calls[k])), None)
        if hit is None:
            failed = True
            rows.append(("✗", _show_pattern(p), f"(none after call {at})" if at else "(none)"))
        else:
            rows.append(("✓", _show_pattern(p), f"{hit + 1}. {_show_call(calls[hit])}"))
            at = hit + 1
    return "in_order: expected these calls in this order\n" + _table(rows) if failed else None


def _contains(patterns: list[Pattern], calls: list[Any]) -> str | None:
    rows, failed = [], False
    for p in patterns:
        hit = next((k for k, c in enumerate(calls) if matches(p, c)), None)
        failed = failed or hit is None
        rows.append(("✗", _show_pattern(p), "(never called so)") if hit is None else
                    ("✓", _show_pattern(p), f"{hit + 1}. {_show_call(calls[hit])}"))
    return "contains: expected each of these calls\n" + _table(rows) if failed else None


def _not_contains(patterns: list[Pattern], calls: list[Any]) -> str | None:
    rows = [("✗", _show_pattern(p), f"{k + 1}. {_show_call(c)}")
            for p in patterns for k, c in enumerate(calls) if matches(p, c)]
    return "not_contains: these calls should not happen\n" + _table(rows) if rows else None


def _bound(what: str, n: int, b: CountBound) -> str | None:
    if b.min is not None and n < b.min:
        return f"{what}: {n} call(s), expected at least {b.min}"
    if b.max is not None and n > b.max:
        return f"{what}: {n} call(s), expected at most {b.max}"
    return None


def grade_tools_called(m: ToolsCalledMatcher, value: Any) -> Verdict:
    spec = m.tools_called
    expected = spec.model_dump(by_alias=True, mode="json", exclude_none=True)
    if not isinstance(value, list):
        return Verdict(False, "`tools-called` reads a list of tool calls (target `tool_calls`), "
                              f"got {shorten_json(value)}", expected)
    problems = [p for p in (
        _exact(spec.exact, value) if spec.exact is not None else None,
        _in_order(spec.in_order, value) if spec.in_order is not None else None,
        _contains(spec.contains, value) if spec.contains is not None else None,
        _not_contains(spec.not_contains, value) if spec.not_contains is not None else None,
    ) if p]
    if spec.count is not None:
        names = Counter(c.get("name") for c in value if isinstance(c, dict))
        problems += [p for p in [_bound("total", len(value), spec.count)] + [
            _bound(f"`{tool}`", names.get(tool, 0), b) for tool, b in spec.count.per_tool.items()
        ] if p]
    if not problems:
        return Verdict(True, expected=expected)
    actual = ", ".join(_show_call(c) for c in value) or "no tool calls"
    return Verdict(False, "\n".join(problems) + f"\nactual sequence: {_cut(actual, 400)}",
                   expected)
