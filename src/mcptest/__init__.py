"""mcptest: a test runner for MCP servers.

The public API is `__all__` (docs/python.md); everything else is internal. Names load on first
use, so that `import mcptest` stays cheap for the CLI (which imports only what its command
needs) and for pytest, which imports the plugin in every session.

    import mcptest
    report = mcptest.run(["suite.yml"], max_cost=0.10)
    assert report.summary.exit_code == 0, report.summary
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from mcptest.version import __version__

if TYPE_CHECKING:  # what the names below are, for type checkers; loaded lazily at run time
    from mcptest.api import arun as arun
    from mcptest.api import run as run
    from mcptest.api.options import Options as Options
    from mcptest.cli.main import main as main
    from mcptest.errors import McpTestError as McpTestError
    from mcptest.errors import ReportError as ReportError
    from mcptest.errors import SuiteError as SuiteError
    from mcptest.errors import SuiteErrors as SuiteErrors
    from mcptest.errors import UsageError as UsageError
    from mcptest.evals.context import JudgeContext as JudgeContext
    from mcptest.exit_codes import ExitCode as ExitCode
    from mcptest.plan import build_plan as build_plan
    from mcptest.report.io import read_report as read_report
    from mcptest.report.models import Report as Report
    from mcptest.report.models import TestResult as TestResult
    from mcptest.suite.load import load_suite as load_suite
    from mcptest.suite.load import load_suites as load_suites
    from mcptest.suite.models import Suite as Suite

_LAZY: dict[str, str] = {
    "ExitCode": "mcptest.exit_codes",
    "JudgeContext": "mcptest.evals.context",
    "McpTestError": "mcptest.errors",
    "Options": "mcptest.api.options",
    "Report": "mcptest.report.models",
    "ReportError": "mcptest.errors",
    "Suite": "mcptest.suite.models",
    "SuiteError": "mcptest.errors",
    "SuiteErrors": "mcptest.errors",
    "TestResult": "mcptest.report.models",
    "UsageError": "mcptest.errors",
    "arun": "mcptest.api",
    "build_plan": "mcptest.plan",
    "load_suite": "mcptest.suite.load",
    "load_suites": "mcptest.suite.load",
    "main": "mcptest.cli.main",
    "read_report": "mcptest.report.io",
    "run": "mcptest.api",
}

__all__ = [
    "ExitCode",
    "JudgeContext",
    "McpTestError",
    "Options",
    "Report",
    "ReportError",
    "Suite",
    "SuiteError",
    "SuiteErrors",
    "TestResult",
    "UsageError",
    "__version__",
    "arun",
    "build_plan",
    "load_suite",
    "load_suites",
    "main",
    "read_report",
    "run",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mcptest' has no attribute {name!r}")


class _Package(types.ModuleType):
    """`mcptest.run` is the Python API's function, though a subpackage is named `run` too:
    importing `mcptest.run.…` would bind the subpackage over it, so that binding is dropped.
    The subpackage stays in `sys.modules` (`from mcptest.run.runner import Runner` works);
    only `import mcptest.run.x as y` cannot be written."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "run" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
