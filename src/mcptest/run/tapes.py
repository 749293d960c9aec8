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
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from mcptest.llm.cassette import Cassettes, Tape
    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult

_M = TypeVar("_M", bound=BaseModel)
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
    from mcptest.grade.definition import test_hash
    from mcptest.llm.cassette import Tape
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
    server answered differently from the recording (gap `replay`), whatever the rest did.
    A row whose answers came from a cassette says which on every replayed vote, and names the
    file in `evidence` when the pull request changed it; where such evidence is not trusted
    (`ChangedEvidence.distrust`), its pass is not a pass (docs/cassettes.md, "What is
    trusted")."""
    if tapes is None:
        return result
    why = tapes.missed(result.id)
    if why is not None:
        return result.model_copy(update={"status": "failed", "gap": "replay", "message": why})
    source = tapes.source(result.id)
    if source is None:
        return result
    if source.only:
        result = _votes_from(result, source.file)
    if not source.changed:
        return result
    said = f"replayed from a cassette this pull request changed ({source.file})"
    update: dict[str, object] = {"evidence": [*result.evidence, source.file]}
    evidence = tapes.evidence
    if evidence is not None and evidence.distrust and result.status in ("passed", "flaky"):
        update.update(status="failed", gap="replay", message=(
            f"{said}: not a pass; {evidence.why_untrusted}. Record it again from the base "
            "branch, or run the models live"))
    else:
        update["message"] = f"{said}; {result.message}" if result.message else said
    return result.model_copy(update=update)


def _votes_from(node: _M, file: str) -> _M:
    """`node` with `replayed_from` set on every vote inside it that got an answer."""
    from mcptest.report.vote_models import JudgeVote
    update: dict[str, object] = {}
    for name, value in node:
        if isinstance(value, JudgeVote):
            if not value.deferred and value.error is None:
                update[name] = value.model_copy(update={"replayed_from": file})
        elif isinstance(value, BaseModel):
            update[name] = _votes_from(value, file)
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            update[name] = [_votes_from(v, file) if not isinstance(v, JudgeVote) else (
                v.model_copy(update={"replayed_from": file})
                if not v.deferred and v.error is None else v) for v in value]
    return node.model_copy(update=update) if update else node
