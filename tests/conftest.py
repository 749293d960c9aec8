"""Shared pytest configuration: async tests run on asyncio through anyio's plugin; property
tests have no per-example deadline; `pytester` runs the plugin's pytest sessions.

Hypothesis fails an example that takes over 200 ms by default: a timing assertion, which on a
loaded 2-core runner can fail a test whose property holds. Speed is measured in bench/, so the
profile drops the deadline; a test that bounds hostile input on purpose still sets its own
(tests/suite/test_suite_fuzz.py).
"""

from __future__ import annotations

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]  # tests/pytest_plugin runs pytest sessions in-process

settings.register_profile("mcptest", deadline=None)
settings.load_profile("mcptest")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
