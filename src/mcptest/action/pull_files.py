"""The pull request's changed files from the GitHub API, for the CLI when git cannot tell
(docs/cassettes.md, "What is trusted"; docs/action.md, "Pull requests from forks").

The Action's image has no git and `actions/checkout` is shallow by default, so there git cannot
say which model cassettes and calibration records a pull request changed, and a fork's pull
request would count every one as changed. Then, on a `pull_request` or `pull_request_target`
event with a token, when the run distrusts changed evidence (a fork's pull request, or the
`distrust-changed-evidence` input), the Action lists `GET /repos/{o}/{r}/pulls/{n}/files` (100
a page, renamed files under both names) into `changed-files.json` beside the report and passes
it with `--evidence-changed-files`. Git is asked first and preferred when it can tell. Our own
pull request is not listed: there "cannot tell" costs nothing (the run names no file, fails no
replay), and the Action asks GitHub for nothing it does not need.

The list is the pull request's three-dot diff, which is what "changed since the merge-base"
means, but only while the pull request still has the head this run checked out: the pull
request is read before and after the listing, and a head other than the event's, a count that
differs from its `changed_files`, or GitHub's limit of 3,000 files reached is "cannot tell". So
is every failure (no permission, a timeout, a body that is not the answer): the run then goes on
as without a list, with a warning naming why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mcptest.action.commands import command, log
from mcptest.action.github_rest import GitHubRest
from mcptest.errors import ReportError
from mcptest.readback.evidence import MAX_EVENT_BYTES, changed_since, fork_pull_request
from mcptest.readback.files import read_regular

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_FILES = 3000
"""GitHub lists at most this many files of a pull request: a list that reaches it may be cut."""
PER_PAGE = 100
DEADLINE_S = 60.0
LIST_FILE = "changed-files.json"
EVENTS = ("pull_request", "pull_request_target")


class PullFilesError(ReportError):
    """The changed-file list could not be had whole; the message is safe to print."""


class PullFilesApi(GitHubRest):
    errand = "the changed-file listing"
    error = PullFilesError

    def __enter__(self) -> PullFilesApi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def head(self, number: int) -> tuple[str, int]:
        """The pull request's head commit and its `changed_files` count."""
        pull = self._get(f"/pulls/{number}")
        try:
            return str(pull["head"]["sha"]), int(pull["changed_files"])
        except (KeyError, TypeError, ValueError):
            raise PullFilesError(f"GET /pulls/{number}: not a pull request") from None

    def files(self, number: int) -> list[dict[str, Any]]:
        """Every file entry, page by page: on while a page is full or `Link` names a next."""
        found: list[dict[str, Any]] = []
        for page in range(1, MAX_FILES // PER_PAGE + 2):
            batch, more = self._page(f"/pulls/{number}/files", per_page=PER_PAGE, page=page)
            if not isinstance(batch, list) or not all(isinstance(f, dict) for f in batch):
                raise PullFilesError(f"GET /pulls/{number}/files: not a list of files")
            found += batch
            if len(found) >= MAX_FILES:
                raise PullFilesError(f"the pull request lists {MAX_FILES:,} files or more, "
                                     "GitHub's limit (the list may be cut)")
            if not more and len(batch) < PER_PAGE:
                return found
        raise PullFilesError(f"GET /pulls/{number}/files: more pages than {MAX_FILES:,} files")


def listed_files(gh: PullFilesApi, number: int, head_sha: str) -> list[str]:
    """The changed paths (and the old names of renamed files) of the pull request at
    `head_sha`; `PullFilesError` when that cannot be had whole."""
    before, count = gh.head(number)
    if count >= MAX_FILES:
        raise PullFilesError(f"the pull request changes {count:,} files, GitHub's limit is "
                             f"{MAX_FILES:,}")
    entries = gh.files(number)
    after, _ = gh.head(number)
    if before != head_sha or after != head_sha:
        raise PullFilesError("the pull request's head moved on from this run's commit "
                             f"{head_sha[:7]} (a newer push)")
    if len(entries) != count:
        raise PullFilesError(f"the API listed {len(entries)} files of the {count} the pull "
                             "request says it changes")
    paths: list[str] = []
    for entry in entries:
        for key in ("filename", "previous_filename"):
            value = entry.get(key)
            if isinstance(value, str) and value:
                paths.append(value)
            elif key == "filename":
                raise PullFilesError("a file entry without its filename")
    return list(dict.fromkeys(paths))


def _pull_request(env: Mapping[str, str]) -> tuple[int, str, str] | None:
    """(number, head sha, base ref) of a pull request event, or None."""
    path = env.get("GITHUB_EVENT_PATH")
    if env.get("GITHUB_EVENT_NAME") not in EVENTS or not path:
        return None
    try:
        pull = json.loads(read_regular(path, path, max_bytes=MAX_EVENT_BYTES,
                                       kind="an event"))["pull_request"]
        return int(pull["number"]), str(pull["head"]["sha"]), str(pull["base"]["ref"])
    except (ReportError, ValueError, KeyError, TypeError):
        return None


def changed_files_arguments(env: Mapping[str, str], token: str, distrust: bool, workdir: Path,
                            output_dir: str, out: TextIO) -> list[str]:
    """`--evidence-changed-files PATH` when the run distrusts changed evidence (a fork's pull
    request, or the input), git cannot tell and the API listed the pull request's files; []
    otherwise (a failure said as a warning)."""
    shown = str(Path(output_dir) / LIST_FILE)
    (workdir / shown).unlink(missing_ok=True)  # never last run's, nor a committed link
    pull = _pull_request(env)
    if pull is None or not token or not env.get("GITHUB_REPOSITORY") or not (
            distrust or fork_pull_request(env)):
        return []
    number, head_sha, base_ref = pull
    git = changed_since(f"origin/{env.get('GITHUB_BASE_REF') or base_ref}", workdir)
    if git.unknown is None:
        return []
    try:
        with PullFilesApi(env.get("GITHUB_API_URL") or "https://api.github.com", token,
                          env["GITHUB_REPOSITORY"], deadline_s=DEADLINE_S) as gh:
            paths = listed_files(gh, number, head_sha)
    except PullFilesError as e:
        out.write(command("warning", "git could not tell which cassettes and records this pull "
                          f"request changed, nor could the GitHub API ({e}): every one counts "
                          "as changed, so no replay passes", title="mcptest: changed evidence")
                  + "\n")
        return []
    with open(workdir / shown, "x", encoding="utf-8") as f:
        json.dump({"source": f"the GitHub API's changed-file list of pull request #{number}",
                   "files": paths}, f)
    log(out, f"mcptest: git could not tell what changed ({git.unknown}); the GitHub API "
             f"lists {len(paths)} changed path(s) of pull request #{number}")
    return ["--evidence-changed-files", shown]
