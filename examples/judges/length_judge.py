"""A custom judge as a Python callable: `custom-judge: {python: "judges.length_judge:judge"}`.

It receives the context (a dict typed `mcptest.JudgeContext`: `candidate`, `rubric`, `input`,
`target`, `test`, …) and returns a verdict: `{verdict, score, reasoning, cost_usd}` (a bool or a
bare score works too).
"""

from __future__ import annotations

from typing import Any

from mcptest import JudgeContext


def judge(context: JudgeContext) -> dict[str, Any]:
    text = str(context.get("candidate") or "")
    words = len(text.split())
    score = 1.0 if 3 <= words <= 80 else 0.3
    return {"score": score, "reasoning": f"{words} words", "cost_usd": 0.0}
