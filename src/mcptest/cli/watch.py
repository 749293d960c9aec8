"""`mcptest run --watch`: run the suites, then wait for a change and rerun exactly the tests it
affects, with their servers kept warm (docs/watch.md).

A change to a suite, or to any file beside it (a rubric, a table of cases, an expected answer),
reloads the suites: a test reruns when its definition hash changed (or it is new). A change to
a server's own files (what its command line names) restarts that server and reruns its tests.
Other servers stay up between cycles (`run/server_pool.py`), and the judge cache answers the
verdicts whose question did not change. Each cycle prints one screen: the cycle's report.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from mcptest.errors import McpTestError, UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Awaitable, Callable, Iterable

    from mcptest.api.options import Options
    from mcptest.plan import Plan, PlannedTest
    from mcptest.run.server_pool import ServerPool

CLEAR = "\x1b[2J\x1b[H"
Key = tuple[str, str]


def server_files(plan: Plan) -> dict[Key, set[Path]]:
    """Each server's own files: what its command line (or an HTTP server's `start` command)
    names that exists, resolved against its working directory, and everything under a folder it
    names."""
    out: dict[Key, set[Path]] = {}
    for suite in plan.suites:
        base = suite.path.parent
        for name, spec in suite.suite.servers.items():
            start = getattr(spec, "start", None)
            words = list(getattr(spec, "command", None) or getattr(start, "command", None) or [])
            cwd = getattr(spec, "cwd", None) or getattr(start, "cwd", None)
            root = (base / cwd) if cwd else base
            found: set[Path] = set()
            for word in words[1:] if len(words) > 1 else words:
                path = (root / word).resolve()
                if path.is_file() or path.is_dir():
                    found.add(path)
            out[(suite.display_path, name)] = found
    return out


def server_specs(plan: Plan) -> dict[Key, str]:
    """Each server's definition as written: a change restarts it (the pool sees it too)."""
    return {(s.display_path, name): spec.model_dump_json()
            for s in plan.suites for name, spec in s.suite.servers.items()}


Snapshot = dict[Path, tuple[int, int]]
MAX_FILES = 20_000
"""Files a snapshot reads at most (a suite beside a huge tree must not stall a cycle)."""


def snapshot(roots: Iterable[Path]) -> Snapshot:
    """Size and mtime of each file under `roots` (watchfiles' ignored folders left out)."""
    import os

    from watchfiles import DefaultFilter

    skip = set(DefaultFilter.ignore_dirs)
    out: Snapshot = {}
    for root in roots:
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in skip]
            for name in names:
                path = Path(folder, name)
                try:
                    st = path.stat()
                except OSError:
                    continue
                out[path] = (st.st_mtime_ns, st.st_size)
                if len(out) >= MAX_FILES:
                    return out
    return out


def files_changed_since(before: Snapshot, roots: Iterable[Path]) -> list[Path]:
    now = snapshot(roots)
    return sorted(p for p in now.keys() | before.keys() if now.get(p) != before.get(p))


def _owned(changed: Path, files: set[Path]) -> bool:
    return any(changed == f or f in changed.parents for f in files)


def affected(old: dict[str, str | None], plan: Plan, restarted: set[Key]) -> list[PlannedTest]:
    """The tests to rerun: new, changed (definition hash) or served by a restarted server."""
    from mcptest.grade.definition import test_hash

    return [t for t in plan.tests if t.id not in old or old[t.id] != test_hash(t)
            or (t.server_key is not None and t.server_key in restarted)]


def hashes(plan: Plan) -> dict[str, str | None]:
    from mcptest.grade.definition import test_hash

    return {t.id: test_hash(t) for t in plan.tests}


class Session:
    """One watch session: the plan as last loaded, the warm servers, the cycle count."""

    def __init__(self, load: Callable[[], Plan], cycle: Callable[[Plan, str], Awaitable[None]],
                 pool: ServerPool, say: Callable[[str], None]) -> None:
        self.load = load
        self.run_cycle = cycle
        self.pool = pool
        self.say = say
        self.plan = load()
        self.known = hashes(self.plan)
        self.files = server_files(self.plan)
        self.specs = server_specs(self.plan)

    def roots(self) -> list[Path]:
        """What to watch: each suite's folder and each server's own files."""
        paths = {s.path.parent.resolve() for s in self.plan.suites}
        for files in self.files.values():
            paths |= {f if f.is_dir() else f.parent for f in files}
        return sorted(paths)

    async def changed(self, paths: Iterable[Path]) -> None:
        changed = [p.resolve() for p in paths]
        restarted = {key for key, files in self.files.items()
                     if any(_owned(p, files) for p in changed)}
        for key in restarted:
            await self.pool.restart(key)
        try:
            plan = self.load()
        except McpTestError as e:  # a half-saved suite: say why, wait for the next save
            self.say(f"mcptest: {e}")
            return
        specs = server_specs(plan)
        restarted |= {k for k, v in specs.items() if k in self.specs and self.specs[k] != v}
        rerun = affected(self.known, plan, restarted)
        self.plan, self.known, self.files, self.specs = (plan, hashes(plan), server_files(plan),
                                                         specs)
        why = (f"{', '.join(k[1] for k in sorted(restarted))} restarted; " if restarted else "")
        if not rerun:
            self.say(f"mcptest: {why}no test affected by "
                     f"{', '.join(p.name for p in changed[:3])}")
            return
        sub = replace(plan, tests=tuple(rerun))
        await self.run_cycle(sub, why)


def watch(args: argparse.Namespace, options: Options, env: dict[str, str], files: list[Path],
          *, evals: bool, tools: bool, agents: bool,
          write: Callable[..., None]) -> int:
    """Run, then rerun on every change until Ctrl-C (exit 0)."""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        raise UsageError("--watch needs the watch extra: pip install 'mcptest[watch]'") from None
    if options.baseline is not None:
        raise UsageError("--watch compares nothing: leave out --baseline (mcptest diff compares "
                         "two saved reports)")
    try:
        return anyio.run(_watch, args, options, env, files, evals, tools, agents, write)
    except KeyboardInterrupt:
        return 0


async def _watch(args: argparse.Namespace, options: Options, env: dict[str, str],
                 files: list[Path], evals: bool, tools: bool, agents: bool,
                 write: Callable[..., None]) -> int:
    import watchfiles

    from mcptest.api.flow import plan_for, run_options
    from mcptest.cli.progress import progress_for
    from mcptest.repeats import arun_repeated, total_runs
    from mcptest.run.server_pool import ServerPool

    tty = sys.stdout.isatty()
    cycles = 0

    def say(line: str) -> None:
        print(line, flush=True)

    def load() -> Plan:
        return plan_for(files, options, env, tools=tools, evals=evals, agents=agents)

    async with anyio.create_task_group() as tg:
        pool = ServerPool(tg)

        async def cycle(plan: Plan, why: str) -> None:
            nonlocal cycles
            cycles += 1
            progress = progress_for(args, plan, total_runs(plan, options.repeats))
            opts = replace(run_options(options, env, progress=progress, log=progress.log),
                           servers=pool)
            outcome = await arun_repeated(plan, opts, options.repeats)
            progress.close()
            if tty:
                sys.stdout.write(CLEAR)
            write(outcome)
            say(f"mcptest: cycle {cycles}: {why}reran {len(plan.tests)} test(s): "
                f"{', '.join(t.id for t in plan.tests)}")

        session = Session(load, cycle, pool, say)
        await cycle(session.plan, "")
        before, ready = snapshot(session.roots()), False
        try:
            # a timeout (an empty set) first comes once the watcher is in place: only then is
            # "waiting" true, and a save made before it is found by comparing the files
            async for changes in watchfiles.awatch(*session.roots(), debounce=300, step=50,
                                                   rust_timeout=300, yield_on_timeout=True):
                if changes:
                    found = [Path(p) for _, p in changes]
                elif not ready:
                    found, ready = files_changed_since(before, session.roots()), True
                    if not found:
                        warm = [k[1] for k in pool.keys()]  # noqa: SIM118 (a method)
                        say(f"mcptest: {len(warm)} server(s) warm ({', '.join(warm) or 'none'});"
                            " waiting for changes (Ctrl-C stops)")
                        continue
                else:
                    continue
                await session.changed(found)
                before, ready = snapshot(session.roots()), False
        finally:
            with anyio.CancelScope(shield=True):
                await pool.aclose()
    return 0
