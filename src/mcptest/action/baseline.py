"""`baseline: auto | PATH`: the report this pull request's run is compared with.

`auto` on a pull request: the merge-base of the PR head with its base branch (the compare
endpoint; the tip of the base branch would credit the PR with changes made on main since), then
the JSON report a push run on that commit stored as the artifact `baseline-artifact`. Only an
artifact the base repository's own push or schedule run of the base branch stored is trusted (a
fork's pull request run stores its artifacts in the same list, possibly for a base-branch
commit). Without one there, walk back along the base branch up to `MAX_WALK` commits and say
how stale the baseline is. A report of an incomplete run (interrupted, budget-stopped, an
internal error, a server that never became ready, or tests lost to transport or environment
errors) is never used: it would credit the PR with fixes it did not make. No baseline → the
run behaves as without one, and the comment says so in one line (docs/baseline.md).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.action.baseline_api import BaselineApiError, GitHubBaselineApi
from mcptest.errors import ReadBackError, UsageError
from mcptest.report.io import read_report
from mcptest.reporters.escape import md_inline

if TYPE_CHECKING:
    from mcptest.report.models import Report

MAX_WALK = 20
"""Commits of the base branch looked at, the merge-base first."""
MAX_CANDIDATES = 20
"""Artifacts looked at in all (a commit can have several: a fork's pull request run can store
one under the same name for a base-branch commit)."""
INFRASTRUCTURE_GAPS = ("transport", "environment")
ApiFactory = Callable[[str, str, str], GitHubBaselineApi]


@dataclass(frozen=True)
class BaselineChoice:
    path: str | None = None
    """The report file handed to `mcptest run --baseline` (relative to the working directory)."""
    note: str | None = None
    """One line: where the baseline came from and how stale it is, or why there is none."""

    def arguments(self, fail_on: str) -> list[str]:
        """`--baseline` and `--fail-on` for `mcptest run`; without a baseline only
        `not-measured` applies (`regressed` needs one)."""
        if self.path is None:
            return ["--fail-on", "not-measured"] if "not-measured" in fail_on else []
        return ["--baseline", self.path, "--baseline-note", self.note or "",
                "--fail-on", fail_on]

    def annotate(self, markdown: str) -> str:
        """The comment with the one "no baseline" line after its marker (inert markdown)."""
        if self.path is not None or not self.note:
            return markdown
        line = md_inline(self.note, 1000)
        head, sep, rest = markdown.partition("\n")
        if not head.startswith("<!--"):
            return f"> {line}\n\n{markdown}"
        return f"{head}{sep}> {line}\n\n{rest}"


def incomplete(report: Report) -> str | None:
    """Why a run's report cannot be a baseline, or None when it can."""
    s = report.summary
    if s.interrupted:  # the signal's name only: the report's text is not quoted
        signal = s.interrupted if re.fullmatch(r"SIG[A-Z0-9]{1,8}", s.interrupted) else ""
        return f"the run was interrupted ({signal})" if signal else "the run was interrupted"
    if s.internal_error:
        return "the run stopped on an internal error"
    if s.budget_stopped:
        return "the budget cap stopped the run"
    if any(sv.status != "ready" for sv in report.servers):
        return "a server never became ready"
    infra = sum(1 for t in report.tests if t.gap in INFRASTRUCTURE_GAPS)
    if infra:
        return f"{infra} test(s) hit transport or environment errors"
    return None


def _event(env: Mapping[str, str]) -> dict[str, Any]:
    path = env.get("GITHUB_EVENT_PATH")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8")) if path else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _days(newer: str | None, older: str | None) -> float | None:
    try:
        assert newer and older
        delta = datetime.fromisoformat(newer) - datetime.fromisoformat(older)
    except (AssertionError, ValueError):
        return None
    return delta.total_seconds() / 86400


def staleness(steps: int, sha: str, merge_base: str, age_days: float | None) -> str:
    """How far the baseline is from the merge-base, as the comment says it."""
    if steps == 0:
        return f"baseline: the run on the merge-base {sha[:7]}"
    age = f", {age_days:.1f} day(s) older" if age_days is not None else ""
    return (f"baseline: the run on {sha[:7]}, {steps} commit(s) before the merge-base "
            f"{merge_base[:7]}{age} (stale: no complete report on the merge-base)")


def from_file(value: str, workdir: Path) -> BaselineChoice:
    """`baseline: PATH`: a missing file is an input error; a file that is there but refused
    (not a regular file, too large, not a valid report) is no baseline, said in one line, and
    the suites run as without one."""
    if not os.path.lexists(workdir / value):
        raise UsageError(f"input 'baseline': {value}: no such file")
    try:
        report = read_report(workdir / value)
    except ReadBackError as e:
        return BaselineChoice(note=f"no baseline: {value} refused ({e.message}"
                                   f"{f' at line {e.line}' if e.line else ''}"
                                   f"{f' at {e.path}' if e.path else ''})")
    if why := incomplete(report):
        return BaselineChoice(note=f"no baseline: {value} is from an incomplete run ({why})")
    return BaselineChoice(path=value, note=f"baseline: {value}")


def resolve_baseline(value: str, artifact: str, env: Mapping[str, str], workdir: Path,
                     output_dir: str, token: str,
                     api: ApiFactory = GitHubBaselineApi) -> BaselineChoice:
    """The baseline the inputs ask for; "" means none was asked for."""
    if not value:
        return BaselineChoice()
    if value != "auto":
        return from_file(value, workdir)
    pull = _event(env).get("pull_request")
    if not isinstance(pull, dict):
        return BaselineChoice(note="no baseline: `baseline: auto` needs a pull_request event")
    if not token or not env.get("GITHUB_REPOSITORY"):
        return BaselineChoice(note="no baseline: no github-token or GITHUB_REPOSITORY")
    base_ref = str((pull.get("base") or {}).get("ref") or "")
    head_sha = str((pull.get("head") or {}).get("sha") or "")
    try:
        with api(env.get("GITHUB_API_URL") or "https://api.github.com", token,
                 env["GITHUB_REPOSITORY"]) as gh:
            return _walk(gh, base_ref, head_sha, artifact, workdir, output_dir)
    except BaselineApiError as e:
        return BaselineChoice(note=f"no baseline: {e}")


def _walk(gh: GitHubBaselineApi, base_ref: str, head_sha: str, artifact: str, workdir: Path,
          output_dir: str) -> BaselineChoice:
    merge_base = gh.merge_base(base_ref, head_sha)
    history = gh.history(merge_base, MAX_WALK)
    stored: dict[str, list[dict[str, Any]]] = {}
    for a in gh.artifacts(artifact):  # newest first: a commit's candidates in that order
        stored.setdefault(str((a.get("workflow_run") or {}).get("head_sha")), []).append(a)
    refused: list[str] = []
    tried = 0
    for steps, (sha, date) in enumerate(history):
        for found in stored.get(sha, []):
            if tried == MAX_CANDIDATES:
                break
            tried += 1
            report, why = _candidate(gh, found, base_ref, sha)
            if report is None:
                refused.append(f"{sha[:7]}: {why}")
                continue
            path = str(Path(output_dir) / "baseline.json")
            (workdir / output_dir).mkdir(parents=True, exist_ok=True)
            (workdir / path).write_text(report.model_dump_json(), encoding="utf-8")
            note = staleness(steps, sha, merge_base, _days(history[0][1], date))
            if refused:
                note += f"; refused: {'; '.join(refused)}"
            return BaselineChoice(path=path, note=note)
    why = f"; refused: {'; '.join(refused)}" if refused else ""
    return BaselineChoice(note=(
        f"no baseline: no complete `{artifact}` artifact on the merge-base {merge_base[:7]} or "
        f"the {max(len(history) - 1, 0)} commit(s) of {base_ref} before it{why}"))


def _candidate(gh: GitHubBaselineApi, found: dict[str, Any], base_ref: str, sha: str
               ) -> tuple[Report | None, str]:
    """The artifact's report when it is trusted, complete and readable; else why not."""
    try:
        if why := gh.untrusted(found, base_ref, sha):
            return None, why
        report = gh.download_report(int(found["id"]))
    except BaselineApiError as e:
        return None, str(e)
    except (KeyError, TypeError, ValueError):
        return None, "the artifact listing did not say which run stored it"
    if why := incomplete(report):
        return None, why
    return report, ""
