"""The tracking issue of `report-to: issue` (docs/action.md, "Nightly tracking issue").

One open issue per suite set, found by a hidden marker on its first line AND our label AND the
token's own login (an issue someone else opened with our marker is never taken over): a failing
run opens it or updates it in place, a passing run closes it with a comment. Like the PR comment
it is a convenience: every API failure is a warning and never changes the step's exit code.
"""

from __future__ import annotations

import re
from typing import Any, Literal
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from mcptest.action.comment import BODY_LIMIT, GitHubComments, compose_body

ISSUE_MARKER_PREFIX = "<!-- mcptest-action-issue:"


class IssueResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    action: Literal["opened", "updated", "closed", "none", "failed"]
    url: str | None = None
    number: int | None = None
    warning: str | None = None


def issue_marker(suites: list[str]) -> str:
    key = re.sub(r"-{2,}|[<>\n\r]", "_", ",".join(sorted(suites)))
    return f"{ISSUE_MARKER_PREFIX} suites={key} -->"


def issue_title(suites: list[str]) -> str:
    shown = ", ".join(sorted(suites))
    return f"mcptest: tests failing ({shown[:180]})"


class GitHubIssues:
    """The issue endpoints the tracking issue needs."""

    def __init__(self, client: httpx.Client, repository: str) -> None:
        self._client = client
        self._repo = repository
        self._host = urlsplit(str(client.base_url)).netloc

    def find(self, label: str, marker_line: str, login: str) -> list[dict[str, Any]]:
        """Our open issues (pull requests excluded), oldest first."""
        found: list[dict[str, Any]] = []
        url: str | None = (f"/repos/{self._repo}/issues?state=open&labels={quote(label)}"
                           "&per_page=100&sort=created&direction=asc")
        while url:
            response = self._client.get(url)
            response.raise_for_status()
            page = response.json()
            if not isinstance(page, list):
                raise ValueError("issue listing is not a JSON array")
            found += [
                i for i in page if isinstance(i, dict) and "pull_request" not in i
                and str(i.get("body") or "").split("\n", 1)[0].strip() == marker_line
                and str((i.get("user") or {}).get("login", "")).lower() == login.lower()
            ]
            next_url = response.links.get("next", {}).get("url")
            url = next_url if next_url and urlsplit(next_url).netloc == self._host else None
        return found

    def open(self, title: str, body: str, label: str) -> dict[str, Any]:
        response = self._client.post(f"/repos/{self._repo}/issues",
                                     json={"title": title, "body": body, "labels": [label]})
        response.raise_for_status()
        return dict(response.json())

    def edit(self, number: int, **fields: Any) -> dict[str, Any]:
        response = self._client.patch(f"/repos/{self._repo}/issues/{number}", json=fields)
        response.raise_for_status()
        return dict(response.json())


def report_to_issue(
    *, api_url: str, token: str, repository: str, suites: list[str], label: str,
    passed: bool, markdown: str, run_url: str | None, timeout: float = 30.0,
) -> IssueResult:
    """Open, update or close our tracking issue; never raises."""
    if not token:
        return IssueResult(action="failed", warning="no github-token: tracking issue skipped")
    marker_line = issue_marker(suites)
    link = f"\n\n[The run]({run_url})" if run_url else ""
    body = compose_body(markdown[: BODY_LIMIT - 200] + link, marker_line)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
               "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "mcptest-action"}
    try:
        with httpx.Client(base_url=api_url.rstrip("/"), headers=headers, timeout=timeout,
                          follow_redirects=False) as client:
            issues = GitHubIssues(client, repository)
            login = GitHubComments(client, repository).viewer_login()
            mine = issues.find(label, marker_line, login)
            latest = mine[-1] if mine else None
            if passed:
                if latest is None:
                    return IssueResult(action="none")
                for issue in mine:  # a pass closes every copy a race may have left
                    GitHubComments(client, repository).create(
                        int(issue["number"]), "All tests pass again" + (
                            f" ([the run]({run_url}))." if run_url else "."))
                    issues.edit(int(issue["number"]), state="closed", state_reason="completed")
                return IssueResult(action="closed", url=latest.get("html_url"),
                                   number=latest.get("number"))
            if latest is not None:
                done = issues.edit(int(latest["number"]), body=body)
                return IssueResult(action="updated", url=done.get("html_url"),
                                   number=done.get("number"))
            done = issues.open(issue_title(suites), body, label)
            return IssueResult(action="opened", url=done.get("html_url"),
                               number=done.get("number"))
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as error:
        return IssueResult(action="failed",
                           warning=f"tracking issue not updated: {_explain(error)}")


def _explain(error: Exception) -> str:
    if isinstance(error, httpx.HTTPStatusError):
        status = error.response.status_code
        if status in (401, 403, 404):
            return (f"GitHub answered {status}: the token cannot write issues; grant "
                    "`permissions: issues: write` (fork PRs' tokens are read-only)")
        return f"GitHub answered {status} {error.response.reason_phrase}"
    if isinstance(error, httpx.HTTPError):
        return f"could not reach the GitHub API ({type(error).__name__})"
    return f"unexpected answer from the GitHub API ({type(error).__name__}: {error})"
