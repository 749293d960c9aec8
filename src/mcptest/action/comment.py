"""The sticky PR comment, through GitHub's REST API with httpx.

One comment per PR and suite set: found by a hidden marker AND the token's own login, so a comment
in which someone pasted our marker is never taken over. A read-only token (fork PRs, Dependabot)
or any other API failure turns into a warning: the comment is a convenience, the tests decide the
step's result. The token is sent only to `GITHUB_API_URL`'s host and never logged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from mcptest.reporters.markdown import MARKER_PREFIX, comment_marker

#: GitHub rejects comment bodies longer than this (422 "Body is too long").
BODY_LIMIT = 65_536
#: Who owns comments made with the Actions token, which may not call `GET /user`.
ACTIONS_BOT_LOGIN = "github-actions[bot]"
_TRUNCATED = (
    "\n\n> **Comment truncated** to fit GitHub's 65,536-character limit; the job summary and the "
    "report files hold everything.\n"
)

CommentMode = Literal["update", "recreate"]


class CommentResult(BaseModel):
    """What happened to the comment; `warning` is set when it could not be posted."""

    model_config = ConfigDict(frozen=True)

    action: Literal["created", "updated", "recreated", "skipped", "failed"]
    url: str | None = None
    comment_id: int | None = None
    warning: str | None = None


def pr_number(event_path: str | None) -> int | None:
    """The PR number from the event file: pull_request(_target), issue_comment on a PR, or
    workflow_run; None for pushes and everything else."""
    if not event_path or not Path(event_path).is_file():
        return None
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(event, dict):
        return None
    pull = event.get("pull_request")
    if isinstance(pull, dict) and isinstance(pull.get("number"), int):
        return int(pull["number"])
    issue = event.get("issue")
    if isinstance(issue, dict) and issue.get("pull_request"):
        number = issue.get("number")
        return number if isinstance(number, int) else None
    run = event.get("workflow_run")
    if isinstance(run, dict) and run.get("pull_requests"):
        first = run["pull_requests"][0]
        if isinstance(first, dict) and isinstance(first.get("number"), int):
            return int(first["number"])
    return None


def action_marker(suites: list[str], shard: str | None = None) -> str:
    """The hidden line that keys the comment to this suite set (and shard): the markdown
    reporter's one marker function, keyed by the Action's inputs."""
    return comment_marker(suites, shard)


def compose_body(markdown: str, marker_line: str) -> str:
    """Marker first, then the markdown (minus any marker line it carries), within the limit."""
    lines = markdown.splitlines()
    if lines and lines[0].startswith(MARKER_PREFIX):
        lines = lines[1:]
    body = marker_line + "\n" + "\n".join(lines).strip("\n") + "\n"
    if len(body) <= BODY_LIMIT:
        return body
    cut = body[: BODY_LIMIT - len(_TRUNCATED) - 1]
    paragraph = cut.rfind("\n\n")
    if paragraph > len(cut) // 2:
        cut = cut[:paragraph]
    if cut and "\ud800" <= cut[-1] <= "\udbff":  # never end on half a surrogate pair
        cut = cut[:-1]
    return cut + _TRUNCATED


class GitHubComments:
    """The few issue-comment endpoints the sticky comment needs."""

    def __init__(self, client: httpx.Client, repository: str) -> None:
        self._client = client
        self._repo = repository
        self._host = urlsplit(str(client.base_url)).netloc

    def viewer_login(self) -> str:
        """Who the token is; the Actions token cannot ask (403), and is github-actions[bot]."""
        response = self._client.get("/user")
        if response.status_code in (401, 403, 404):
            return ACTIONS_BOT_LOGIN
        response.raise_for_status()
        return str(response.json().get("login") or ACTIONS_BOT_LOGIN)

    def list_comments(self, number: int) -> list[dict[str, Any]]:
        """Every comment of the PR, following `Link: rel="next"` on the API's own host only."""
        comments: list[dict[str, Any]] = []
        url: str | None = f"/repos/{self._repo}/issues/{number}/comments?per_page=100"
        while url:
            response = self._client.get(url)
            response.raise_for_status()
            page = response.json()
            if not isinstance(page, list):
                raise ValueError("comment listing is not a JSON array")
            comments.extend(c for c in page if isinstance(c, dict))
            next_url = response.links.get("next", {}).get("url")
            url = next_url if next_url and urlsplit(next_url).netloc == self._host else None
        return comments

    def find(self, number: int, marker_line: str, login: str) -> dict[str, Any] | None:
        """Our latest comment: starts with the marker and was written by this token's login."""
        mine = [
            c for c in self.list_comments(number)
            if str(c.get("body") or "").split("\n", 1)[0].strip() == marker_line
            and str((c.get("user") or {}).get("login", "")).lower() == login.lower()
        ]
        return mine[-1] if mine else None

    def create(self, number: int, body: str) -> dict[str, Any]:
        response = self._client.post(
            f"/repos/{self._repo}/issues/{number}/comments", json={"body": body}
        )
        response.raise_for_status()
        return dict(response.json())

    def update(self, comment_id: int, body: str) -> dict[str, Any]:
        response = self._client.patch(
            f"/repos/{self._repo}/issues/comments/{comment_id}", json={"body": body}
        )
        response.raise_for_status()
        return dict(response.json())

    def delete(self, comment_id: int) -> None:
        response = self._client.delete(f"/repos/{self._repo}/issues/comments/{comment_id}")
        if response.status_code != 404:  # already gone is fine
            response.raise_for_status()


def _explain(error: Exception) -> str:
    if isinstance(error, httpx.HTTPStatusError):
        status = error.response.status_code
        if status in (401, 403, 404):
            return (
                f"GitHub answered {status}: the token cannot write PR comments. On a pull request "
                "from a fork (or by Dependabot) the token is read-only; grant "
                "`permissions: pull-requests: write`, or post from a `workflow_run` workflow."
            )
        return f"GitHub answered {status} {error.response.reason_phrase}"
    if isinstance(error, httpx.HTTPError):
        return f"could not reach the GitHub API ({type(error).__name__})"
    return f"unexpected answer from the GitHub API ({type(error).__name__}: {error})"


def post_sticky_comment(
    *,
    api_url: str,
    token: str,
    repository: str,
    number: int,
    body: str,
    mode: CommentMode = "update",
    timeout: float = 30.0,
) -> CommentResult:
    """Create, update in place, or delete-and-recreate our comment; never raises."""
    if not token:
        return CommentResult(action="skipped", warning="no github-token: PR comment skipped")
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "mcptest-action",
    }
    marker_line = body.splitlines()[0] if body.startswith(MARKER_PREFIX) else ""
    try:
        with httpx.Client(
            base_url=api_url.rstrip("/"), headers=headers, timeout=timeout, follow_redirects=False
        ) as client:
            api = GitHubComments(client, repository)
            existing = api.find(number, marker_line, api.viewer_login()) if marker_line else None
            if existing is not None and mode == "update":
                done = api.update(int(existing["id"]), body)
                return CommentResult(
                    action="updated", url=done.get("html_url"), comment_id=done.get("id")
                )
            if existing is not None:
                api.delete(int(existing["id"]))
            done = api.create(number, body)
            return CommentResult(
                action="recreated" if existing is not None else "created",
                url=done.get("html_url"),
                comment_id=done.get("id"),
            )
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as error:
        return CommentResult(action="failed", warning=f"PR comment not posted: {_explain(error)}")
