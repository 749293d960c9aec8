"""Readers of a suite's plain (interpolated) data, shared by the cross-checks (`checks.py`) and
the advice (`advice.py`): the matchers nested in a matcher, an eval's generators and judges.
Each skips what it cannot read: validation reports that."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.suite.positions import KeyPath


def eval_generators(test: dict[str, Any]) -> list[str]:
    """The models that write a live eval's answer (its `model`, its matrix models); none for a
    fixed `response`."""
    if test.get("response") is not None:
        return []
    matrix = test.get("matrix")
    models = matrix.get("models") if isinstance(matrix, dict) else None
    found = [test.get("model"), *(models if isinstance(models, list) else [])]
    return [m for m in found if isinstance(m, str)]


def eval_judges(judge: dict[str, Any], path: KeyPath) -> list[tuple[KeyPath, str]]:
    """The judge models an eval's `judge:` names, with where each is written."""
    panel = judge.get("panel")
    if isinstance(panel, list):
        return [((*path, "panel", k), m) for k, m in enumerate(panel) if isinstance(m, str)]
    model = judge.get("model")
    return [((*path, "model"), model)] if isinstance(model, str) else []


def is_jury_target(target: Any) -> bool:
    return isinstance(target, str) and target.split(".")[0].split("[")[0] == "jury"


def walk_matcher(matcher: Any, path: KeyPath, tiers: bool = True
                  ) -> Iterator[tuple[KeyPath, dict[str, Any]]]:
    """The matcher and the ones nested in it; with `tiers`, an `llm-judge`'s escalation tiers
    too (each an `llm-judge` or `llm-jury` mapping, docs/cascade.md)."""
    if not isinstance(matcher, dict):
        return
    yield path, matcher
    judge = matcher.get("llm-judge")
    escalate = judge.get("escalate") if tiers and isinstance(judge, dict) else None
    for k, tier in enumerate(escalate if isinstance(escalate, list) else []):
        if isinstance(tier, dict):
            yield (*path, "llm-judge", "escalate", k), tier
    if "not" in matcher:
        yield from walk_matcher(matcher["not"], (*path, "not"))
    for key in ("all", "any"):
        parts = matcher.get(key)
        for k, part in enumerate(parts if isinstance(parts, list) else []):
            yield from walk_matcher(part, (*path, key, k))
