"""The GitHub REST calls that find a baseline report: merge-base, base-branch history, workflow
artifacts, the runs that made them, and their zip download (docs/baseline.md, "How
`baseline: auto` finds a report" and "Which artifacts are trusted").

The token goes to `GITHUB_API_URL` only (`github_rest.py`): an artifact download answers with a
redirect to signed storage, which is fetched without it. Every answer is read as a stream and
bounded: API answers as `github_rest.py` bounds them, an artifact's zip to `MAX_ZIP_BYTES` (into
a temporary file, never extracted), all of it within `DEADLINE_S`. The
report inside is decompressed block by block into the report reader, which bounds it however
large the zip's directory says it is. Error messages are safe to print: no token, no body, no
text of the artifact.
"""

from __future__ import annotations

import tempfile
import zipfile
import zlib
from typing import IO, TYPE_CHECKING, Any

import httpx

from mcptest.action.github_rest import READ_TIMEOUT_S, GitHubRest
from mcptest.errors import ReadBackError, ReportError
from mcptest.readback.files import BLOCK
from mcptest.report.io import MAX_REPORT_BYTES, report_from_blocks

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.report.models import Report

MAX_ZIP_BYTES = 64 << 20
"""A bigger artifact is refused (a report of 10,000 tests zips to a few MB)."""
DEADLINE_S = 120.0
"""The whole search for a baseline, downloads included."""
REPORT_FILE = "mcptest.json"
TRUSTED_EVENTS = ("push", "schedule")
_REDIRECTS = (301, 302, 303, 307, 308)


class BaselineApiError(ReportError):
    """An API call or a download failed; the message is safe to print (no token, no body)."""


class GitHubBaselineApi(GitHubRest):
    errand = "the baseline search"
    error = BaselineApiError

    def __init__(self, api_url: str, token: str, repository: str, *,
                 deadline_s: float = DEADLINE_S, read_timeout_s: float = READ_TIMEOUT_S) -> None:
        super().__init__(api_url, token, repository, deadline_s=deadline_s,
                         read_timeout_s=read_timeout_s)
        self._runs: dict[int, dict[str, Any]] = {}

    def __enter__(self) -> GitHubBaselineApi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def merge_base(self, base_ref: str, head_sha: str) -> str:
        """The merge-base of the PR head with its base branch (the compare endpoint)."""
        data = self._get(f"/compare/{base_ref}...{head_sha}")
        return str(data["merge_base_commit"]["sha"])

    def history(self, sha: str, limit: int) -> list[tuple[str, str | None]]:
        """`sha` and its ancestors on the base branch, newest first: (sha, committer date)."""
        data = self._get("/commits", sha=sha, per_page=min(limit, 100))
        return [(str(c["sha"]), (c.get("commit") or {}).get("committer", {}).get("date"))
                for c in data[:limit]]

    def artifacts(self, name: str, pages: int = 3) -> list[dict[str, Any]]:
        """Unexpired artifacts called `name`, newest first (whatever run stored them)."""
        found: list[dict[str, Any]] = []
        for page in range(1, pages + 1):
            data = self._get("/actions/artifacts", name=name, per_page=100, page=page)
            batch = data.get("artifacts") or []
            found += [a for a in batch if a.get("name") == name and not a.get("expired")]
            if len(batch) < 100:
                break
        return sorted(found, key=lambda a: str(a.get("created_at") or ""), reverse=True)

    def run(self, run_id: int) -> dict[str, Any]:
        """The workflow run (its event, head repository and branch), once per id."""
        if run_id not in self._runs:
            self._runs[run_id] = self._get(f"/actions/runs/{run_id}")
        return self._runs[run_id]

    def untrusted(self, artifact: dict[str, Any], base_ref: str, sha: str) -> str | None:
        """Why this artifact is not a baseline, or None when the base repository's own push or
        schedule run of the base branch made it (docs/baseline.md, "Which artifacts are
        trusted"). The artifact's `workflow_run` is checked first, then the run itself."""
        stored = artifact.get("workflow_run") or {}
        if stored.get("head_repository_id") != stored.get("repository_id"):
            return "made by a run on another repository's code (a fork)"
        if stored.get("head_branch") != base_ref or stored.get("head_sha") != sha:
            return f"made by a run of another branch than {base_ref}"
        run = self.run(int(stored["id"]))
        event = str(run.get("event"))
        if event not in TRUSTED_EVENTS:
            shown = event if event.replace("_", "").isalpha() and len(event) < 40 else "other"
            return f"made by a {shown} run, not a push or schedule run of {base_ref}"
        repo, head = run.get("repository") or {}, run.get("head_repository") or {}
        if repo.get("full_name") != self.repository or head.get("id") != repo.get("id"):
            return "made by a run on another repository's code (a fork)"
        if run.get("head_branch") != base_ref or run.get("head_sha") != sha:
            return f"made by a run of another branch than {base_ref}"
        return None

    def download_report(self, artifact_id: int) -> Report:
        """The artifact's zip, fetched (the redirect without our token) into a temporary file,
        and the report in it read."""
        what = f"artifact {artifact_id}"
        self._in_time(what)
        with tempfile.TemporaryFile() as zipped:
            try:
                r = self.client.get(f"/repos/{self.repository}/actions/artifacts/"
                                    f"{artifact_id}/zip")
                if r.status_code not in _REDIRECTS:
                    raise BaselineApiError(f"{what}: HTTP {r.status_code}")
                with httpx.Client(timeout=self.timeout, follow_redirects=True,
                                  headers={"Accept-Encoding": "identity"}) as bare, \
                        bare.stream("GET", r.headers["location"]) as blob:
                    if blob.status_code >= 400:
                        raise BaselineApiError(f"{what}: HTTP {blob.status_code}")
                    for chunk in self._chunks(blob, MAX_ZIP_BYTES, what):
                        zipped.write(chunk)
            except (httpx.HTTPError, KeyError) as e:
                raise BaselineApiError(f"{what}: {type(e).__name__}") from None
            zipped.seek(0)
            return read_zipped_report(zipped, what)


def read_zipped_report(zipped: IO[bytes], source: str) -> Report:
    """The `mcptest.json` of a zip (or its only JSON file), decompressed block by block into the
    report reader: at most `MAX_REPORT_BYTES` whatever the zip's directory declares."""
    try:
        with zipfile.ZipFile(zipped) as z:
            names = [i for i in z.infolist() if i.filename.endswith(".json") and not i.is_dir()]
            chosen = next((i for i in names if i.filename.rsplit("/", 1)[-1] == REPORT_FILE),
                          names[0] if len(names) == 1 else None)
            if chosen is None:
                raise BaselineApiError(f"{source}: no {REPORT_FILE} in the zip")
            with z.open(chosen) as member:
                return report_from_blocks(_bounded(member, source), source)
    except ReadBackError as e:
        raise BaselineApiError(f"{source}: {e.message}" + (
            f" (line {e.line})" if e.line else f" ({e.path})" if e.path else "")) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
            RuntimeError, NotImplementedError, ValueError) as e:
        raise BaselineApiError(f"{source}: not a readable zip ({type(e).__name__})") from None


def _bounded(member: IO[bytes], source: str) -> Iterator[bytes]:
    total = 0
    while block := member.read(BLOCK):
        total += len(block)
        if total > MAX_REPORT_BYTES:
            raise BaselineApiError(f"{source}: its report is larger than "
                                   f"{MAX_REPORT_BYTES >> 20} MiB once decompressed")
        yield block
