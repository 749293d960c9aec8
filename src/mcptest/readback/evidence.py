"""Committed evidence a pull request changed: the model cassettes and calibration records that
differ from the merge-base with a base branch (docs/cassettes.md, "What is trusted").

A replayed verdict is only as good as its cassette, and a cascade's thresholds only as good as
its record; both are files a pull request (a fork's too) can edit. `git` names the files that
differ from the merge-base of HEAD and `base` (committed, staged, unstaged or untracked); a
verdict resting on one of them says so, and with `distrust` it is not trusted at all. When git
cannot tell (no repository, a shallow clone without the base), a changed-file list given
(`--evidence-changed-files`: the Action's, from the GitHub API) is used instead, and `source`
says so; without one, `unknown` says why: every file then counts as changed when distrusting,
none otherwise (the run warns either way). Git is preferred when it can tell: it also sees what
the working tree holds beyond the pull request's commits (a file a step before changed).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.errors import ReadBackError
from mcptest.readback.files import read_regular

if TYPE_CHECKING:
    from collections.abc import Mapping

GIT_TIMEOUT_S = 30.0
MAX_EVENT_BYTES = 8 << 20


@dataclass(frozen=True)
class ChangedEvidence:
    """What differs from `base`, and whether such evidence is trusted in this run."""

    base: str
    files: frozenset[Path]
    """Resolved paths of every file that differs from the merge-base."""
    distrust: bool = False
    """A fork's pull request, or `--distrust-changed-evidence`: a replay from a changed cassette
    is not a pass, a changed record's cascade is advisory."""
    unknown: str | None = None
    """Why git could not tell (then `changed` is `distrust`)."""
    source: str | None = None
    """Where `files` came from when not from git (a changed-file list), and why git could not
    tell; None: git."""

    def changed(self, path: Path) -> bool:
        if self.unknown is not None:
            return self.distrust
        try:
            return path.resolve() in self.files
        except OSError:
            return self.distrust

    @property
    def why_untrusted(self) -> str:
        return (f"evidence changed since the merge-base with {self.base} is not trusted here "
                "(a fork's pull request, or --distrust-changed-evidence)")


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=GIT_TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise OSError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                      else f"git {args[0]} failed")
    return done.stdout


def changed_since(base: str, cwd: Path, *, distrust: bool = False) -> ChangedEvidence:
    """The files that differ from the merge-base of HEAD and `base`, seen from `cwd`."""
    try:
        top = Path(_git(cwd, "rev-parse", "--show-toplevel").strip())
        merge_base = _git(cwd, "merge-base", "HEAD", base).strip()
        names = _git(top, "diff", "--name-only", "-z", merge_base, "--").split("\0")
        names += _git(top, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
    except (OSError, subprocess.SubprocessError) as e:
        return ChangedEvidence(base, frozenset(), distrust, unknown=str(e) or type(e).__name__)
    return ChangedEvidence(base, frozenset((top / n).resolve() for n in names if n), distrust)


def fork_pull_request(env: Mapping[str, str]) -> bool:
    """Whether this is a GitHub Actions run for a pull request from another repository (a fork):
    its event file names a head repository other than the base's."""
    path = env.get("GITHUB_EVENT_PATH")
    if not path or env.get("GITHUB_EVENT_NAME", "").split("_target")[0] != "pull_request":
        return False
    try:
        event = json.loads(read_regular(path, path, max_bytes=MAX_EVENT_BYTES, kind="an event"))
        pr = event["pull_request"]
        head, base = pr["head"]["repo"], pr["base"]["repo"]
        return bool(head is None or head.get("fork") or head.get("full_name") != base.get(
            "full_name"))
    except (ReadBackError, ValueError, KeyError, TypeError, AttributeError):
        return True  # a pull request whose event cannot be read is not taken for our own


def evidence_for(base: str | None, distrust: bool, env: Mapping[str, str], cwd: Path,
                 listed: Path | None = None) -> ChangedEvidence | None:
    """What `--evidence-base`, `--distrust-changed-evidence` and `--evidence-changed-files` (or
    the environment: the pull request's base branch, a fork's pull request) make of this run;
    None: no comparison. A list that is refused raises `ReadBackError`."""
    distrust = distrust or fork_pull_request(env)
    given = None
    if listed is not None:  # `--evidence-changed-files`: its reader only then
        from mcptest.readback.changed_files import list_root, read_changed_files

        given = read_changed_files(listed, list_root(env, cwd))
    implicit = base is None
    if base is None and env.get("GITHUB_BASE_REF"):
        base = f"origin/{env['GITHUB_BASE_REF']}"
    if base is None and given is None:
        return ChangedEvidence("(none)", frozenset(), distrust, unknown=(
            "no base to compare with (--evidence-base)")) if distrust else None
    found = (changed_since(base, cwd, distrust=distrust) if base is not None else
             ChangedEvidence("the base branch", frozenset(), distrust, unknown="no base ref"))
    if found.unknown is not None and given is not None:
        return ChangedEvidence(found.base, given.files, distrust, source=(
            f"{given.source} ({given.count} path(s); git could not tell: {found.unknown})"))
    if found.unknown is not None and implicit and not distrust:
        return None  # a shallow checkout of our own pull request: nothing to say
    return found
