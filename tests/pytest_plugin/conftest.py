"""Pytest sessions of users' repositories, run with mcptest's plugin loaded by `-p` (and no
other plugin autoloaded, so the test does not depend on the entry points this venv has)."""

from __future__ import annotations

import importlib
import os
import pkgutil
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


@pytest.fixture(scope="session")
def _mcptest_imported() -> None:
    """Every mcptest module, imported once per test process: pytester's in-process session
    drops the modules it imported when it ends, and a run imports most of mcptest lazily
    (deferred model building), so the next session would import them again (~0.75 s of CPU)
    beside objects kept from the last one (a suite's model of another `ToolTest` class)."""
    import mcptest

    for module in pkgutil.walk_packages(mcptest.__path__, "mcptest."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


@pytest.fixture
def session_keyless(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                    _mcptest_imported: None) -> Session:
    """`session_keyless(*args)`: pytest in-process in `pytester.path`, without provider keys or
    judge settings, for sessions that run suites. In-process since their servers are the test
    process's shared example server (`support.cli_run.HEAD`): a pytest process of its own cost
    each test ~1.7 s of CPU (an interpreter, pytest's and mcptest's imports), and the plugin's
    runs, not pytest's process, are the point (docs/architecture.md, "Tests")."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    for key in [k for k in os.environ
                if k.endswith("_API_KEY") or k.startswith("MCPTEST_JUDGE")]:
        monkeypatch.delenv(key)
    return lambda *args: pytester.runpytest_inprocess(*PLUGIN, *args)
