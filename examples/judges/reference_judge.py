"""A custom judge that grades against the test's `reference:` (docs/cascade.md, "Weighted tiers
and a reference"): the share of the reference's item ids that the whole answer holds.

    custom-judge: {python: "judges.reference_judge:judge"}

It reads `reference` and `metadata.response` (the tool's full answer) from its context.
"""

from __future__ import annotations

from typing import Any


def judge(context: dict[str, Any]) -> dict[str, Any]:
    reference = context.get("reference") or {}
    wanted = [item.get("id") for item in reference.get("items", [])]
    answer = (context.get("metadata") or {}).get("response") or {}
    got = {item.get("id") for item in
           ((answer.get("result") or {}).get("structuredContent") or {}).get("items", [])}
    found = [i for i in wanted if i in got]
    score = len(found) / len(wanted) if wanted else 0.0
    return {"score": score, "reasoning": f"{len(found)} of {len(wanted)} reference ids",
            "cost_usd": 0.0}
