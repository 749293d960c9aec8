"""Pytest sessions of users' repositories, run with mcptest's plugin loaded by `-p` (and no
other plugin autoloaded, so the test does not depend on the entry points this venv has)."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

import mcptest.api.options
import mcptest.pytest_plugin.nodes
import mcptest.suite.load  # noqa: F401  imported here, kept by pytester's sys.modules snapshot

Session = Callable[..., pytest.RunResult]
PLUGIN = ("-p", "mcptest.pytest_plugin", "-p", "no:cacheprovider")


@pytest.fixture
def session(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Session:
    """`session(*args)`: pytest in-process in `pytester.path` (collection and selection)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return lambda *args: pytester.runpytest_inprocess(*PLUGIN, *args)


@pytest.fixture
def session_process(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Session:
    """`session_process(*args)`: pytest in a process of its own (runs that start servers)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    for key in [k for k in os.environ
                if k.endswith("_API_KEY") or k.startswith("MCPTEST_JUDGE")]:
        monkeypatch.delenv(key)
    return lambda *args: pytester.runpytest_subprocess(*PLUGIN, *args, timeout=300)
