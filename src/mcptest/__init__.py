"""mcptest: a test runner for MCP servers.

The public API is `__all__`; everything else is internal. Names load on first use, so that
`import mcptest` stays cheap for the CLI (which imports only what its command needs).

    from mcptest import load_suites, build_plan
    suites = load_suites([Path("suite.yml")], env=dict(os.environ))
    plan = build_plan(suites)
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY: dict[str, str] = {
    "ExitCode": "mcptest.exit_codes",
    "McpTestError": "mcptest.errors",
    "Report": "mcptest.report.models",
    "Suite": "mcptest.suite.models",
    "SuiteErrors": "mcptest.errors",
    "build_plan": "mcptest.plan",
    "load_suite": "mcptest.suite.load",
    "load_suites": "mcptest.suite.load",
    "main": "mcptest.cli.main",
    "read_report": "mcptest.report.io",
}

__all__ = [
    "ExitCode",
    "McpTestError",
    "Report",
    "Suite",
    "SuiteErrors",
    "__version__",
    "build_plan",
    "load_suite",
    "load_suites",
    "main",
    "read_report",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mcptest' has no attribute {name!r}")
