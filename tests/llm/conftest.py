"""Fixtures for judge tests: a fresh loopback judge server per test, once per client route.

Every judge test runs twice: over the fast OpenAI-compatible route (`llm/openai_route.py`, no
litellm) and through litellm (`MCPTEST_LLM_ROUTE=litellm`), so both pass the same suite.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.judge_server import JudgeServer

# The litellm route imports litellm in each worker (seconds of CPU): it runs in `make test`, not
# in the quick loop (docs/architecture.md, "Tests").
ROUTES = ("fast", pytest.param("litellm", marks=pytest.mark.slow))


@pytest.fixture(params=ROUTES)
def judge_server(request: pytest.FixtureRequest) -> Iterator[JudgeServer]:
    with JudgeServer(route=request.param) as js:
        yield js


@pytest.fixture(scope="module", params=ROUTES)
def shared_server(request: pytest.FixtureRequest) -> Iterator[JudgeServer]:
    with JudgeServer(route=request.param) as js:
        yield js
