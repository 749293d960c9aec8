"""Fixtures for judge tests: a fresh loopback judge server per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.judge_server import JudgeServer


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    with JudgeServer() as js:
        yield js

