"""The sticky PR comment against the loopback GitHub server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.github_server import GitHubServer

from mcptest.action.comment import (
    BODY_LIMIT,
    CommentResult,
    action_marker,
    compose_body,
    post_sticky_comment,
    pr_number,
)

REPO = "octo/repo"
MARK = action_marker(["tests/mcp/*.yml"])


def post(gh: GitHubServer, body: str, mode: str = "update", token: str = "t0ken") -> CommentResult:
    return post_sticky_comment(api_url=gh.url, token=token, repository=REPO, number=7,
                               body=compose_body(body, MARK), mode=mode)  # type: ignore[arg-type]


@pytest.mark.slow
def test_create_then_update_the_same_comment() -> None:
    with GitHubServer() as gh:
        first = post(gh, "### run 1")
        second = post(gh, "### run 2")
        comments = gh.comments(7)
    assert first.action == "created" and second.action == "updated"
    assert first.comment_id == second.comment_id and first.url == second.url
    assert len(comments) == 1
    assert comments[0]["body"] == f"{MARK}\n### run 2\n"


def test_recreate_deletes_and_creates() -> None:
    with GitHubServer() as gh:
        first = post(gh, "### run 1")
        again = post(gh, "### run 2", mode="recreate")
        comments = gh.comments(7)
        methods = [m for m, _ in gh.requests]
    assert again.action == "recreated" and again.comment_id != first.comment_id
    assert [c["id"] for c in comments] == [again.comment_id]
    assert "DELETE" in methods


def test_personal_token_login_is_asked_and_respected() -> None:
    with GitHubServer(login="octocat", actions_token=False) as gh:
        gh.seed(7, f"{MARK}\nforged by someone else", login="mallory", repo=REPO)
        result = post(gh, "### mine")
        comments = gh.comments(7)
    assert result.action == "created"  # the forged comment carries our marker but not our login
    assert [c["user"]["login"] for c in comments] == ["mallory", "octocat"]
    assert comments[0]["body"].endswith("forged by someone else")


def test_other_suite_sets_keep_their_own_comment() -> None:
    other = action_marker(["other/*.yml"])
    with GitHubServer() as gh:
        gh.seed(7, f"{other}\nother suites", login="github-actions[bot]", repo=REPO)
        post(gh, "### ours")
        post(gh, "### ours again")
        bodies = [c["body"] for c in gh.comments(7)]
    assert bodies == [f"{other}\nother suites", f"{MARK}\n### ours again\n"]


def test_comment_found_beyond_the_first_page() -> None:
    with GitHubServer() as gh:
        for i in range(130):
            gh.seed(7, f"chatter {i}", login="someone", repo=REPO)
        first = post(gh, "### one")
        second = post(gh, "### two")
        pages = [p for m, p in gh.requests if m == "GET" and "/issues/7/comments" in p]
    assert second.action == "updated" and second.comment_id == first.comment_id
    assert any("page=2" in p for p in pages)


def test_fork_token_gives_a_warning_not_an_error() -> None:
    with GitHubServer(read_only=True) as gh:
        result = post(gh, "### run")
        assert gh.comments(7) == []
    assert result.action == "failed" and result.url is None
    assert result.warning is not None and "403" in result.warning and "fork" in result.warning


def test_wrong_token_is_refused_and_never_echoed() -> None:
    with GitHubServer(token="right") as gh:
        result = post(gh, "### run", token="wrong-secret-value")
    assert result.action == "failed" and "401" in (result.warning or "")
    assert "wrong-secret-value" not in (result.warning or "")


def test_unreachable_api_is_a_warning() -> None:
    with GitHubServer() as gh:
        url = gh.url
    result = post_sticky_comment(api_url=url, token="t", repository=REPO, number=7,
                                 body=compose_body("x", MARK), timeout=2)
    assert result.action == "failed" and "could not reach" in (result.warning or "")


def test_no_token_skips() -> None:
    result = post_sticky_comment(api_url="http://127.0.0.1:9", token="", repository=REPO,
                                 number=7, body="x")
    assert result.action == "skipped"


def test_body_is_kept_under_githubs_limit() -> None:
    body = compose_body("### head\n\n" + ("| row | 😀 |\n\n" * 20_000), MARK)
    assert len(body) <= BODY_LIMIT and body.startswith(MARK + "\n### head")
    assert "Comment truncated" in body
    with GitHubServer() as gh:
        result = post_sticky_comment(api_url=gh.url, token="t0ken", repository=REPO, number=7,
                                     body=body)
    assert result.action == "created"


def test_marker_line_from_the_reporter_is_replaced() -> None:
    body = compose_body("<!-- mcptest-action: suites=whatever -->\n### head\n", MARK)
    assert body == f"{MARK}\n### head\n"


def test_marker_cannot_close_the_html_comment() -> None:
    line = action_marker(["a-->b.yml", "x<y"], shard="1/2")
    assert line.startswith("<!-- mcptest-action: suites=") and line.count("-->") == 1
    assert line.endswith(" shard=1/2 -->")


@pytest.mark.parametrize(
    ("event", "number"),
    [
        ({"pull_request": {"number": 12}}, 12),
        ({"issue": {"number": 5, "pull_request": {"url": "u"}}}, 5),
        ({"issue": {"number": 5}}, None),
        ({"workflow_run": {"pull_requests": [{"number": 9}]}}, 9),
        ({"ref": "refs/heads/main"}, None),
        ([], None),
    ],
)
def test_pr_number_from_the_event(tmp_path: Path, event: object, number: int | None) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    assert pr_number(str(path)) == number


def test_pr_number_without_an_event_file() -> None:
    assert pr_number(None) is None and pr_number("/nonexistent/event.json") is None


def test_enterprise_api_url_with_a_path_prefix() -> None:
    with GitHubServer(prefix="/api/v3") as gh:
        for i in range(101):
            gh.seed(7, f"chatter {i}", login="someone", repo=REPO)
        assert gh.url.endswith("/api/v3")
        first = post(gh, "### one")
        second = post(gh, "### two")
        paths = [p for _, p in gh.requests]
    assert first.action == "created" and second.action == "updated"
    assert all(p.startswith("/api/v3/") for p in paths)
    assert any("page=2" in p for p in paths)


def test_marker_must_open_the_comment() -> None:
    with GitHubServer() as gh:
        quoted = gh.seed(7, f"> {MARK}\nquoted in a reply", login="github-actions[bot]", repo=REPO)
        wider = action_marker(["tests/mcp/*.yml", "more/*.yml"])
        gh.seed(7, f"{wider}\nanother suite set", login="github-actions[bot]", repo=REPO)
        result = post(gh, "### ours")
        bodies = {c["id"]: c["body"] for c in gh.comments(7)}
    assert result.action == "created" and len(bodies) == 3
    assert bodies[quoted].endswith("quoted in a reply")
