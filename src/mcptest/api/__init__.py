"""The Python entry (docs/python.md): `mcptest.run(paths, **options) -> Report` and `arun`.

Thin over what `mcptest run` does: the same options (`Options`, one per flag), the same load,
plan and pipeline entry, the same baseline comparison; instead of reporters and an exit code,
the canonical `Report`, redacted as every report is. Bad suites, options or baselines raise the
project's errors (`SuiteErrors`, `UsageError`, `ReportError`); a run's own faults do not raise:
the report carries them (`summary.internal_error`, `summary.exit_code` 70), as in the CLI.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from mcptest.api.paths import SuitePaths
from mcptest.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mcptest.api.options import Options
    from mcptest.report.models import Report, TestResult

__all__ = ["SuitePaths", "arun", "run"]


def run(paths: SuitePaths = (), *, options: Options | None = None,
        env: Mapping[str, str] | None = None,
        progress: Callable[[TestResult], None] | None = None, **flags: Any) -> Report:
    """Run the suite files `paths` as `mcptest run` would and return the report.

    `flags` are the options of `mcptest run` by their Python names (`max_cost=0.10`,
    `tag=["smoke"]`, `with_evals=True`), checked when called; `options` gives them as one
    typed `Options` (flags win over it). `env` replaces `os.environ` for the suites' variables,
    servers and judge keys. `progress` is called with each test's row as it finishes; an
    exception it raises is raised from here once the run has ended. Inside a running event
    loop, `await arun(...)` instead.
    """
    import anyio

    try:
        import asyncio

        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise UsageError("mcptest.run() was called inside a running event loop; "
                         "use `await mcptest.arun(...)` there")
    return anyio.run(functools.partial(
        arun, paths, options=options, env=env, progress=progress, **flags))


async def arun(paths: SuitePaths = (), *, options: Options | None = None,
               env: Mapping[str, str] | None = None,
               progress: Callable[[TestResult], None] | None = None, **flags: Any) -> Report:
    """`run`, awaited in the caller's (asyncio) event loop. Signals stay the caller's:
    cancelling the task stops the run and its servers."""
    from mcptest.api.flow import arun_report, load_baseline, plan_for
    from mcptest.api.options import options_of
    from mcptest.api.paths import suite_paths

    given = options.model_dump(exclude_unset=True) if options is not None else {}
    chosen = options_of({**given, **flags})
    environ = dict(os.environ if env is None else env)
    baseline = load_baseline(chosen)
    plan = plan_for(suite_paths(paths), chosen, environ)
    caller = _Callback(progress) if progress is not None else None
    report = await arun_report(plan, chosen, environ, progress=caller, baseline=baseline)
    if caller is not None and caller.raised is not None:
        raise caller.raised  # the caller's own exception, not a fault of the run's (exit 70)
    return report


class _Callback:
    """The caller's `progress`, run so that what it raises reaches the caller: the run ends
    as it would (its servers closed), the callback is not called again, and the exception is
    raised from `run`/`arun` in place of the report."""

    def __init__(self, call: Callable[[TestResult], None]) -> None:
        self.call = call
        self.raised: Exception | None = None

    def __call__(self, row: TestResult) -> None:
        if self.raised is None:
            try:
                self.call(row)
            except Exception as e:
                self.raised = e
