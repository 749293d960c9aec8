"""The Action's read-only GitHub REST client: the token to `GITHUB_API_URL` only, every answer
read as a stream and bounded, the whole errand within a deadline.

A body is read to at most `MAX_API_BYTES` and by the deadline (checked between reads; one read
waits at most `read_timeout_s`, so a server that sends a byte now and then is cut off at the
deadline); a compressed body is refused (its size would not be the bytes that arrive). Error
messages are safe to print: no token, no body. The baseline search (`baseline_api.py`) and the
pull request's changed files (`pull_files.py`) are its two errands, each with its own error
class and its own words for the deadline.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, ClassVar

import httpx

from mcptest.errors import ReportError

if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_API_BYTES = 16 << 20
READ_TIMEOUT_S = 30.0


class GitHubRest:
    """One errand's client; subclasses name the errand and its error class."""

    errand: ClassVar[str] = "the GitHub API call"
    """Said when time runs out ("the baseline search's time ran out")."""
    error: ClassVar[type[ReportError]] = ReportError

    def __init__(self, api_url: str, token: str, repository: str, *, deadline_s: float,
                 read_timeout_s: float = READ_TIMEOUT_S) -> None:
        self.repository = repository
        self.deadline = time.monotonic() + deadline_s
        self.timeout = httpx.Timeout(read_timeout_s)
        self.client = httpx.Client(
            base_url=api_url.rstrip("/"), timeout=self.timeout, follow_redirects=False,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
                     "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "mcptest-action",
                     "Accept-Encoding": "identity"})

    def close(self) -> None:
        self.client.close()

    def _chunks(self, response: httpx.Response, limit: int, what: str) -> Iterator[bytes]:
        """The body, read by the deadline and bounded."""
        if response.headers.get("content-encoding", "identity") != "identity":
            raise self.error(f"{what}: answered with a compressed body")
        total = 0
        for chunk in response.iter_raw():  # as the bytes arrive (a chunk size would wait)
            total += len(chunk)
            if total > limit:
                raise self.error(f"{what}: larger than {limit >> 20} MiB")
            if time.monotonic() > self.deadline:
                raise self.error(f"{what}: still arriving after {self.errand}'s time ran out")
            yield chunk

    def _page(self, path: str, **params: Any) -> tuple[Any, bool]:
        """The JSON of `GET /repos/{repository}{path}`, and whether its `Link` header names a
        next page."""
        what = f"GET {path}"
        self._in_time(what)
        try:
            with self.client.stream("GET", f"/repos/{self.repository}{path}",
                                    params=params or None) as r:
                if r.status_code >= 400:
                    raise self.error(f"{what}: HTTP {r.status_code}")
                data = json.loads(b"".join(self._chunks(r, MAX_API_BYTES, what)))
                return data, "next" in r.links
        except (httpx.HTTPError, ValueError) as e:
            raise self.error(f"{what}: {type(e).__name__}") from None

    def _get(self, path: str, **params: Any) -> Any:
        return self._page(path, **params)[0]

    def _in_time(self, what: str) -> None:
        if time.monotonic() > self.deadline:
            raise self.error(f"{what}: {self.errand}'s time ran out")
