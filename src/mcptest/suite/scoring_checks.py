"""Settings that only mean something in a weighted test (docs/cascade.md, "Weighted tiers and a
reference"): a `weight:` on an assertion of a gate test, or a `threshold:` on `scoring: {mode:
gate}`, would be accepted and then ignored, so each is a load error at its key saying what to
write instead.

Runs on the interpolated plain data, like `checks.py`, and skips what it cannot read (validation
reports that).
"""

from __future__ import annotations

from typing import Any

from mcptest.errors import SuiteError
from mcptest.suite.positions import KeyPath, Positions, format_path

_GROUPS = ("tools", "agents")


def _weighted(test: dict[str, Any], path: KeyPath, positions: Positions,
              errors: list[SuiteError]) -> bool:
    """Whether the test is weighted; a gate's `threshold` is reported on the way."""
    scoring = test.get("scoring")
    if not isinstance(scoring, dict):
        return False
    mode = scoring.get("mode", "gate")
    if mode == "gate" and "threshold" in scoring:
        at = (*path, "scoring", "threshold")
        errors.append(SuiteError(
            "`threshold` has no effect with `mode: gate` (every assertion must pass): write "
            "`scoring: {mode: weighted, threshold: …}` for a weighted score, or drop `threshold`",
            positions.key(at), format_path(at)))
    return bool(mode == "weighted")


def scoring_checks(data: dict[str, Any], positions: Positions) -> list[SuiteError]:
    """Every `weight:` outside a weighted test and every `threshold:` of a gate."""
    errors: list[SuiteError] = []
    for group in _GROUPS:
        tests = data.get(group)
        for i, test in enumerate(tests if isinstance(tests, list) else []):
            if not isinstance(test, dict):
                continue
            if _weighted(test, (group, i), positions, errors):
                continue
            expect = test.get("expect")
            for j, assertion in enumerate(expect if isinstance(expect, list) else []):
                if isinstance(assertion, dict) and "weight" in assertion:
                    at = (group, i, "expect", j, "weight")
                    errors.append(SuiteError(
                        "`weight` only counts in a weighted test: add `scoring: {mode: "
                        "weighted}` to the test, or drop `weight` (a gate test needs every "
                        "assertion to pass)", positions.key(at), format_path(at)))
    return errors


__all__ = ["scoring_checks"]
