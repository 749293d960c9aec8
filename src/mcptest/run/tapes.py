"""Which model cassette a report row records into and replays from (docs/cassettes.md,
"Where the files go"), and what a replay that diverged makes of the row.

One file per row: `cassettes/<suite file stem>/<kind>-<name>-<digest>.json` beside the suite
(or under `--cassette-dir`), so a suite's cassettes sit next to it in review, a renamed test gets
a new file, and two rows whose names slug alike still get two files. The digest is of the row's
id without the suite's path, so the same file is found from any working directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.grade.definition import test_hash
from mcptest.llm.cassette import Cassettes, Tape

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult

_NOT_SLUG = re.compile(r"[^a-z0-9]+")
SLUG_MAX = 60


def _slug(text: str) -> str:
    return _NOT_SLUG.sub("-", text.lower()).strip("-")[:SLUG_MAX].strip("-") or "test"


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)


def tape_of(test: PlannedTest, root: Path | None) -> Tape:
    suite = test.suite.path
    stem = suite.name.removesuffix(".yaml").removesuffix(".yml")
    folder = (root if root is not None else suite.parent / "cassettes") / _slug(stem)
    label = test.id.removeprefix(f"{test.suite.display_path}::")  # the same from any cwd
    digest = hashlib.sha256(label.encode()).hexdigest()[:8]
    path = folder / f"{test.kind}-{_slug(test.name)}-{digest}.json"
    return Tape(test=test.id, definition=test_hash(test), path=path, shown=_shown(path),
                label=label)


@contextlib.contextmanager
def playing(tapes: Cassettes | None, test: PlannedTest) -> Iterator[None]:
    """Run one row's code under its tape (nothing without `--models`)."""
    if tapes is None:
        yield
        return
    with tapes.playing(tape_of(test, tapes.root)):
        yield


def replay_verdict(tapes: Cassettes | None, result: TestResult) -> TestResult:
    """A row whose replay met a request its cassette could not answer fails with why: the
    server answered differently from the recording (gap `replay`), whatever the rest did."""
    why = tapes.missed(result.id) if tapes is not None else None
    if why is None:
        return result
    return result.model_copy(update={"status": "failed", "gap": "replay", "message": why})
