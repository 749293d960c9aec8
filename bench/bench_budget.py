"""What a `--max-cost` cap buys at concurrency 8 compared with concurrency 1.

Run: `.venv/bin/python bench/bench_budget.py`. 60 judge calls, each with a worst case far above
its real cost (a 1,024-token `max_tokens` against a 40-token answer), under a cap that covers a
dozen worst cases. At concurrency 1 each call settles before the next reserves, so the cap buys
many calls; before in-flight waiting, concurrency 8 refused calls merely because others were in
flight (issue: 53 of 60 skipped after $0.26 of $0.50). The target: concurrency 8 buys ≥ 90% of
what concurrency 1 buys (docs/judges.md, "Budget").
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

CALLS = 60
MODEL = "budget-bench"
CAP = 0.06


async def bought(concurrency: int, base_env: dict[str, str]) -> tuple[int, float]:
    from mcptest.llm.contracts import JudgeOptions, JudgeRequest
    from mcptest.llm.engine import JudgeEngine
    from mcptest.suite.models import JudgeDefaults, Pricing

    defaults = JudgeDefaults(max_tokens=1024, pricing={MODEL: Pricing(input=3.0, output=15.0)})
    engine = JudgeEngine(JudgeOptions(concurrency=concurrency, max_cost=CAP, env=base_env,
                                      defaults=defaults))
    sent = 0

    async def one(i: int) -> None:
        nonlocal sent
        o = await engine.judge(JudgeRequest(rubric="Fine?", candidate=f"answer {i}",
                                            model=MODEL))
        sent += o.status == "verdict"

    async with anyio.create_task_group() as tg:
        for i in range(CALLS):
            tg.start_soon(one, i)
    return sent, engine.stats().spent_usd


def main() -> None:
    from support.judge_server import JudgeServer, Verdict

    with JudgeServer() as js:
        js.script(MODEL, Verdict(score=0.8, latency=0.02, completion_tokens=40))
        one, spent1 = anyio.run(bought, 1, js.gateway_env())
        eight, spent8 = anyio.run(bought, 8, js.gateway_env())
    print(f"cap ${CAP}, {CALLS} calls: concurrency 1 bought {one} (${spent1:.4f}), "
          f"concurrency 8 bought {eight} (${spent8:.4f}): {eight / max(one, 1):.0%}")


if __name__ == "__main__":
    main()
