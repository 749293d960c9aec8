"""A suite file as a pytest `File`, each of its tests as an `Item` (docs/python.md, "pytest").

Collecting loads the file and plans it as `mcptest run --with-evals` would: one item per test,
one per case of a `cases:` table, one per agent model or eval cell. The file runs once, when
its first item runs, through the one pipeline entry with the items pytest kept (`-k`, `-m`,
`--lf`): its servers start once, its judge calls go out in parallel under one budget, and each
item then reports its own row. With `mcptest_run_per = session` one run takes every file's
kept items at once (a `Batch` of the session instead of one per file). Tags become markers,
failures read as mcptest's terminal report, and a test whose judge could not be reached (no
key) is skipped with the reason.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from mcptest.api.flow import arun_report, plan_for
from mcptest.errors import McpTestError
from mcptest.plan import Plan, PlannedTest
from mcptest.pytest_plugin.session_state import plugin_session
from mcptest.reporters.escape import shorten, terminal
from mcptest.reporters.pretty_row import render_test

if TYPE_CHECKING:
    from collections.abc import Iterator

    from _pytest._code.code import TerminalRepr, TracebackStyle  # of `Node.repr_failure`

    from mcptest.report.models import Report, TestResult

LOG = logging.getLogger("mcptest")
"""The run's own lines (its header, server errors): pytest shows them under a failing item."""
MARKABLE = re.compile(r"[A-Za-z][\w.-]*")
"""Tags that can be markers (and `-m` words); every tag is a `-k` keyword."""
PYTEST_MARKS = frozenset({"skip", "skipif", "xfail", "parametrize", "usefixtures",
                          "filterwarnings", "tryfirst", "trylast"})
"""pytest acts on these marks: a tag of that name stays a keyword only."""


class TestFailed(McpTestError):
    """An item did not pass; the text is mcptest's account of why."""

    __test__ = False  # not a test class, though its name starts with Test


class SuiteFile(pytest.File):
    """One suite file: collected into items, run once for all of its items that pytest kept
    (or, with `mcptest_run_per = session`, with every other file's)."""

    plan: Plan | None = None
    batch: Batch | None = None

    def collect(self) -> Iterator[SuiteItem]:
        options = plugin_session(self.config).options
        self.plan = plan_for([self.path], options, dict(os.environ), evals=options.with_evals)
        names = Counter(t.name for t in self.plan.tests)
        for t in self.plan.tests:
            name = t.name if names[t.name] == 1 else f"{t.kind}: {t.name}"
            yield SuiteItem.from_parent(self, name=name, planned=t)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        """A bad suite as its file, line and key, with no traceback; `style` is `Node`'s, which
        a collector's failure does not use (pytest's own `Collector` drops it)."""
        if isinstance(excinfo.value, McpTestError):  # a bad suite: file, line, key; no trace
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def row(self, test_id: str) -> TestResult:
        """The row of `test_id`, running its batch first if it has not run yet."""
        state = plugin_session(self.config)
        if state.per_session:
            if state.batch is None:
                state.batch = Batch(_kept_files(self.session), "the session's suite files")
            return state.batch.row(self.config, test_id)
        if self.batch is None:
            self.batch = Batch([self], self.path.name)
        return self.batch.row(self.config, test_id)


def _kept_files(session: pytest.Session) -> list[SuiteFile]:
    """The suite files of the items pytest kept, in run order."""
    files: dict[SuiteFile, None] = {}
    for item in session.items:
        if isinstance(item, SuiteItem) and isinstance(item.parent, SuiteFile):
            files[item.parent] = None
    return list(files)


@dataclass
class Batch:
    """One pipeline run for the kept items of `files`, and what came of it."""

    files: list[SuiteFile]
    label: str
    report: Report | None = None
    fault: str | None = None

    def row(self, config: pytest.Config, test_id: str) -> TestResult:
        if self.report is None and self.fault is None:
            try:
                self.report = self._run(config)
            except McpTestError as e:  # e.g. an unpriced judge under max_cost
                self.fault = f"mcptest could not run {self.label}: {e}"
            else:
                err = self.report.summary.internal_error
                if err is not None:
                    self.fault = (f"internal error of mcptest while running {self.label}: "
                                  f"{err} (`mcptest run` would exit 70)")
        if self.fault is not None:
            raise TestFailed(self.fault)
        assert self.report is not None
        for t in self.report.tests:
            if t.id == test_id:
                return t
        raise TestFailed(f"mcptest's report has no row for {test_id}")

    def _run(self, config: pytest.Config) -> Report:
        state = plugin_session(config)
        plans = [f.plan for f in self.files if f.plan is not None]
        kept = {i.planned.id for i in self.files[0].session.items
                if isinstance(i, SuiteItem) and i.parent in self.files}
        plan = Plan(suites=tuple(s for p in plans for s in p.suites),
                    selected_from=sum(p.selected_from for p in plans),
                    tests=tuple(t for p in plans for t in p.tests if t.id in kept))
        return anyio.run(functools.partial(
            arun_report, plan, state.options, dict(os.environ), log=LOG.info,
            ledger=state.ledger))


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
        apply_row(row)

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


def apply_row(row: TestResult) -> None:
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
