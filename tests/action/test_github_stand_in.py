"""The GitHub stand-in holds itself to GitHub's published description: a request or an answer
the description does not allow fails the test that caused it, and event files are whole webhook
payloads (tests/support/github_openapi.py)."""

from __future__ import annotations

import httpx
import jsonschema
import pytest
from support.github_events import pull_request_event
from support.github_openapi import _webhook_validator, response_violation
from support.github_server import GitHubServer

pytestmark = pytest.mark.slow  # loads GitHub's 13 MB description

TOKEN = "t0ken"


def test_a_request_outside_the_description_is_a_violation() -> None:
    with pytest.raises(AssertionError, match=r"GET /repos/octo/repo/actions/artifacts.*page"), \
            GitHubServer(token=TOKEN) as gh:
        httpx.get(f"{gh.url}/repos/octo/repo/actions/artifacts",
                  params={"page": "not-a-number"}, headers={"Authorization": f"Bearer {TOKEN}"})


def test_an_answer_outside_the_description_is_a_violation() -> None:
    assert "Unknown response http status: 200" in (response_violation(
        "GET", "/repos/o/r/actions/artifacts/1/zip", "", 200, b"PK", {}) or "")
    assert response_violation("GET", "/repos/o/r/actions/artifacts/1/zip", "", 302, b"",
                              {"Location": "https://storage.test/a.zip"}) is None


def test_answers_are_whole_and_what_the_action_relies_on_is_kept() -> None:
    with GitHubServer(token=TOKEN) as gh:
        aid = gh.baseline.add("mcptest-report", "a" * 40, b"PK", False, "2026-11-20T10:05:00Z",
                              event="pull_request", head_repository="fork/repo")
        headers = {"Authorization": f"Bearer {TOKEN}"}
        listed = httpx.get(f"{gh.url}/repos/octo/repo/actions/artifacts", headers=headers).json()
        run_id = listed["artifacts"][0]["workflow_run"]["id"]
        run = httpx.get(f"{gh.url}/repos/octo/repo/actions/runs/{run_id}", headers=headers).json()
        assert gh.violations == []
    assert listed["artifacts"][0]["id"] == aid and listed["artifacts"][0]["node_id"]
    assert (run["event"], run["head_branch"], run["head_sha"]) == ("pull_request", "main",
                                                                   "a" * 40)
    assert run["head_repository"]["full_name"] == "fork/repo"
    assert run["repository"]["full_name"] == "octo/repo"
    assert run["head_repository"]["id"] != run["repository"]["id"]
    assert {"jobs_url", "workflow_id", "head_commit", "pull_requests"} <= set(run)


def test_event_files_are_whole_webhook_payloads() -> None:
    event = pull_request_event(7, head_repo="fork/repo")
    assert event["pull_request"]["head"]["repo"]["full_name"] == "fork/repo"
    assert event["pull_request"]["base"]["ref"] == "main"
    partial = {"action": "synchronize", "number": 7, "pull_request": {"number": 7}}
    with pytest.raises(jsonschema.ValidationError):
        _webhook_validator("pull-request-synchronize").validate(partial)
