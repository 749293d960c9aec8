"""Event files as GitHub writes them to `GITHUB_EVENT_PATH`: whole webhook payloads, validated
against `@octokit/openapi-webhooks` (`github_openapi.webhook_payload`), with the values a test
cares about set and every other required field filled from the schema. (A `schedule` run's event
file is not a webhook and has no published schema: the tests that need one write its one key.)"""

from __future__ import annotations

from typing import Any

from support.github_baseline import repository
from support.github_openapi import webhook_payload

REPO = "octo/repo"


def pull_request_event(number: int, *, action: str = "synchronize", base_ref: str = "main",
                       base_sha: str = "f" * 40, head_ref: str = "feature",
                       head_sha: str = "e" * 40, head_repo: str = REPO) -> dict[str, Any]:
    """A `pull_request` event; `head_repo` other than the base repository is a fork's PR."""
    def side(ref: str, sha: str, repo: str) -> dict[str, Any]:
        return {"ref": ref, "sha": sha, "label": f"{repo.split('/')[0]}:{ref}",
                "repo": repository(repo), "user": {"login": repo.split("/")[0]}}

    return webhook_payload(f"pull-request-{action}", {
        "action": action, "number": number, "repository": repository(REPO),
        "pull_request": {"number": number, "state": "open",
                         "html_url": f"https://github.com/{REPO}/pull/{number}",
                         "base": side(base_ref, base_sha, REPO),
                         "head": side(head_ref, head_sha, head_repo)},
    })


def push_event(ref: str = "refs/heads/main", after: str = "c" * 40) -> dict[str, Any]:
    return webhook_payload("push", {"ref": ref, "after": after, "repository": repository(REPO)})

