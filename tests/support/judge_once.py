"""One judge call through the JudgeEngine as a run makes it, with fast retries: the provider and
route fault tests (tests/llm/test_provider_faults.py, test_route_faults.py) each ask one."""

from __future__ import annotations

from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.suite.models import JudgeDefaults


async def judge_once(env: dict[str, str], model: str, *, structured: bool = True,
                     tries: int = 3) -> JudgeOutcome:
    engine = JudgeEngine(JudgeOptions(env=env, max_tries=tries, retry_base_delay=0.01,
                                      defaults=JudgeDefaults(structured_output=structured)))
    try:
        return await engine.judge(JudgeRequest(rubric="r", candidate="c", model=model))
    finally:
        await engine.client.aclose()
