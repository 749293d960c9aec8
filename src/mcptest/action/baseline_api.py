"""The GitHub REST calls that find a baseline report: merge-base, base-branch history, workflow
artifacts and their zip download (docs/baseline.md, "How `baseline: auto` finds a report").

The token goes to `GITHUB_API_URL` only: an artifact download answers with a redirect to signed
storage, which is fetched without it. Downloads are bounded, and a zip is read in memory, only
its one JSON report, never extracted to disk.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import httpx

from mcptest.errors import ReportError
from mcptest.report.io import parse_report
from mcptest.report.models import Report

MAX_ZIP_BYTES = 64 * 1024 * 1024
"""A bigger artifact is refused (a report of 5,000 tests is a few MB)."""
MAX_REPORT_BYTES = 256 * 1024 * 1024
REPORT_FILE = "mcptest.json"


class BaselineApiError(Exception):
    """An API call failed; the message is safe to print (no token, no body)."""


class GitHubBaselineApi:
    def __init__(self, api_url: str, token: str, repository: str, timeout: float = 30.0) -> None:
        self.repository = repository
        self.client = httpx.Client(
            base_url=api_url.rstrip("/"), timeout=timeout, follow_redirects=False,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
                     "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "mcptest-action"})

    def __enter__(self) -> GitHubBaselineApi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    def _get(self, path: str, **params: Any) -> Any:
        try:
            r = self.client.get(f"/repos/{self.repository}{path}", params=params or None)
            r.raise_for_status()
            return r.json()
        except httpx.HTTPStatusError as e:
            raise BaselineApiError(f"GET {path}: HTTP {e.response.status_code}") from None
        except (httpx.HTTPError, ValueError) as e:
            raise BaselineApiError(f"GET {path}: {type(e).__name__}") from None

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
        """Unexpired artifacts called `name`, newest first (what push workflows stored)."""
        found: list[dict[str, Any]] = []
        for page in range(1, pages + 1):
            data = self._get("/actions/artifacts", name=name, per_page=100, page=page)
            batch = data.get("artifacts") or []
            found += [a for a in batch if a.get("name") == name and not a.get("expired")]
            if len(batch) < 100:
                break
        return sorted(found, key=lambda a: str(a.get("created_at") or ""), reverse=True)

    def download_report(self, artifact_id: int) -> Report:
        """The artifact's zip, fetched (the redirect without our token) and its report read."""
        path = f"/repos/{self.repository}/actions/artifacts/{artifact_id}/zip"
        try:
            r = self.client.get(path)
            if r.status_code in (301, 302, 303, 307, 308):
                with httpx.Client(timeout=self.client.timeout, follow_redirects=True) as bare:
                    data = _bounded(bare, r.headers["location"])
            else:
                r.raise_for_status()
                data = r.content[: MAX_ZIP_BYTES + 1]
        except httpx.HTTPStatusError as e:
            raise BaselineApiError(f"artifact {artifact_id}: HTTP {e.response.status_code}"
                                   ) from None
        except (httpx.HTTPError, KeyError) as e:
            raise BaselineApiError(f"artifact {artifact_id}: {type(e).__name__}") from None
        if len(data) > MAX_ZIP_BYTES:
            raise BaselineApiError(f"artifact {artifact_id}: larger than {MAX_ZIP_BYTES} bytes")
        return read_zipped_report(data, f"artifact {artifact_id}")


def _bounded(client: httpx.Client, url: str) -> bytes:
    with client.stream("GET", url) as r:
        r.raise_for_status()
        out = bytearray()
        for chunk in r.iter_bytes():
            out += chunk
            if len(out) > MAX_ZIP_BYTES:
                break
        return bytes(out)


def read_zipped_report(data: bytes, source: str) -> Report:
    """The `mcptest.json` in a zip (or its only JSON file), validated as a report."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = [i for i in z.infolist() if i.filename.endswith(".json") and not i.is_dir()]
            chosen = next((i for i in names if i.filename.rsplit("/", 1)[-1] == REPORT_FILE),
                          names[0] if len(names) == 1 else None)
            if chosen is None:
                raise BaselineApiError(f"{source}: no {REPORT_FILE} in the zip")
            if chosen.file_size > MAX_REPORT_BYTES:
                raise BaselineApiError(f"{source}: {chosen.filename} is too large")
            text = z.read(chosen).decode("utf-8")
    except (zipfile.BadZipFile, UnicodeDecodeError, OSError) as e:
        raise BaselineApiError(f"{source}: not a readable zip ({type(e).__name__})") from None
    try:
        return parse_report(text, f"{source}/{chosen.filename}")
    except ReportError as e:
        raise BaselineApiError(str(e)) from None
