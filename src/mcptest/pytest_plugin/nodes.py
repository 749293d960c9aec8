"""A suite file as a pytest `File`, each of its tests as an `Item` (docs/python.md, "pytest").

Collecting loads the file and plans it as `mcptest run --with-evals` would: one item per test,
one per case of a `cases:` table, one per agent model or eval cell. The file runs once, when
its first item runs, through the one pipeline entry with the items pytest kept (`-k`, `-m`,
`--lf`): its servers start once, its judge calls go out in parallel under one budget, and each
item then reports its own row. Tags become markers, failures read as mcptest's terminal report,
and a test whose judge could not be reached (no key) is skipped with the reason.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from mcptest.api.flow import arun_report, plan_for
from mcptest.errors import McpTestError
from mcptest.plan import Plan, PlannedTest
from mcptest.pytest_plugin.session import plugin_session
from mcptest.report.models import Report, TestResult
from mcptest.reporters.escape import shorten, terminal
from mcptest.reporters.pretty import render_test

LOG = logging.getLogger("mcptest")
"""The run's own lines (its header, server errors): pytest shows them under a failing item."""
MARKABLE = re.compile(r"[A-Za-z][\w.-]*")
"""Tags that can be markers (and `-m` words); every tag is a `-k` keyword."""
PYTEST_MARKS = frozenset({"skip", "skipif", "xfail", "parametrize", "usefixtures",
                          "filterwarnings", "tryfirst", "trylast"})
"""pytest acts on these marks: a tag of that name stays a keyword only."""


class TestFailed(Exception):
    """An item did not pass; the text is mcptest's account of why."""

    __test__ = False  # not a test class, though its name starts with Test


class SuiteFile(pytest.File):
    """One suite file: collected into items, run once for all of its items that pytest kept."""

    plan: Plan | None = None
    _report: Report | None = None
    _fault: str | None = None

    def collect(self) -> Iterator[SuiteItem]:
        options = plugin_session(self.config).options
        self.plan = plan_for([self.path], options, dict(os.environ), evals=options.with_evals)
        names = Counter(t.name for t in self.plan.tests)
        for t in self.plan.tests:
            name = t.name if names[t.name] == 1 else f"{t.kind}: {t.name}"
            yield SuiteItem.from_parent(self, name=name, planned=t)

    def repr_failure(  # type: ignore[override]  # as pytest's own Collector
            self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        if isinstance(excinfo.value, McpTestError):  # a bad suite: file, line, key; no trace
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def row(self, test_id: str) -> TestResult:
        """The row of `test_id`, running the file first if it has not run yet."""
        if self._report is None and self._fault is None:
            try:
                self._report = self._run()
            except McpTestError as e:  # e.g. an unpriced judge under max_cost
                self._fault = f"mcptest could not run {self.path.name}: {e}"
            else:
                err = self._report.summary.internal_error
                if err is not None:
                    self._fault = (f"internal error of mcptest while running {self.path.name}: "
                                   f"{err} (`mcptest run` would exit 70)")
        if self._fault is not None:
            raise TestFailed(self._fault)
        assert self._report is not None
        for t in self._report.tests:
            if t.id == test_id:
                return t
        raise TestFailed(f"mcptest's report has no row for {test_id}")

    def _run(self) -> Report:
        state = plugin_session(self.config)
        assert self.plan is not None
        kept = {i.planned.id for i in self.session.items
                if isinstance(i, SuiteItem) and i.parent is self}
        plan = Plan(suites=self.plan.suites, selected_from=self.plan.selected_from,
                    tests=tuple(t for t in self.plan.tests if t.id in kept))
        report = anyio.run(functools.partial(
            arun_report, plan, state.file_options(), dict(os.environ), log=LOG.info))
        state.spent += report.summary.cost_usd
        return report


class SuiteItem(pytest.Item):
    """One test of a suite file (a case of a table, an agent model, an eval cell)."""

    def __init__(self, *, planned: PlannedTest, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.planned = planned
        self.add_marker("mcptest")
        for tag in planned.tags:
            self.extra_keyword_matches.add(tag)
            if MARKABLE.fullmatch(tag) and tag not in PYTEST_MARKS:
                _register(self.config, tag)
                self.add_marker(tag)

    def runtest(self) -> None:
        assert isinstance(self.parent, SuiteFile)
        row = self.parent.row(self.planned.id)
        self.user_properties.append(("mcptest_status", row.status))
        verdict(row)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, TestFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, self.planned.location.line - 1, f"{self.planned.kind}: {self.name}"


def _register(config: pytest.Config, tag: str) -> None:
    """Declare `tag` as a marker once (so `--strict-markers` accepts it), unless it is one."""
    seen = plugin_session(config).markers
    if not seen:
        seen.update(line.split(":")[0].split("(")[0].strip()
                    for line in config.getini("markers"))
    if tag not in seen:
        config.addinivalue_line("markers", f"{tag}: tests tagged {tag} in mcptest suites")
        seen.add(tag)


def verdict(row: TestResult) -> None:
    """Pass, fail with mcptest's text, or skip with the reason, as the row says."""
    if row.status == "passed" or (row.status == "flaky" and row.repeat is not None
                                  and row.repeat.met):
        return
    if row.status in ("failed", "error", "flaky"):
        raise TestFailed(render_test(row).rstrip("\n"))
    # skipped, deferred (no judge reached), not_yet_available; shown at the test's own line
    raise pytest.skip.Exception(skip_reason(row), _use_item_location=True)


def skip_reason(row: TestResult) -> str:
    label = row.status.replace("_", " ")
    why = row.message or next((a.message for a in row.assertions
                               if a.status == row.status and a.message), None) or label
    why = terminal(shorten(why, 400))
    return why if why.lower().startswith(label) else f"{label}: {why}"
