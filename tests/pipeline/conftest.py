from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.judge_server import JudgeServer


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server
