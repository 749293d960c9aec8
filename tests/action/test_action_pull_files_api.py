"""The pull request's changed files from the loopback GitHub server (action/pull_files.py):
pages, renames, GitHub's 3,000-file limit, a head that moves on, failures that fall back, and
git preferred when it can tell."""

from __future__ import annotations

import io
import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from support.action_env import PR, REPO, TOKEN
from support.github_events import pull_request_event, push_event
from support.github_server import GitHubServer

from mcptest.action.pull_files import (
    PullFilesApi,
    PullFilesError,
    changed_files_arguments,
    listed_files,
)

HEAD_SHA = "e" * 40


def api(gh: GitHubServer, deadline_s: float = 30.0) -> PullFilesApi:
    return PullFilesApi(gh.url, TOKEN, REPO, deadline_s=deadline_s)


def test_every_page_and_both_names_of_a_renamed_file() -> None:
    files = [f"src/f{i}.py" for i in range(250)] + [("cassettes/new.json", "cassettes/old.json")]
    with GitHubServer(token=TOKEN) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=files)
        with api(gh) as client:
            got = listed_files(client, PR, HEAD_SHA)
        pages = [p for _, p in gh.requests if "/files" in p]
    assert got[:250] == files[:250] and got[250:] == ["cassettes/new.json", "cassettes/old.json"]
    assert pages == [f"/repos/{REPO}/pulls/{PR}/files?per_page=100&page={n}" for n in (1, 2, 3)]


@pytest.mark.parametrize(("files", "claims", "moves_to", "why"), [
    (3000, None, None, "changes 3,000 files, GitHub's limit is 3,000"),
    (3000, 2999, None, "lists 3,000 files or more, GitHub's limit (the list may be cut)"),
    (5, 7, None, "the API listed 5 files of the 7 the pull request says it changes"),
    (5, None, "d" * 40, "head moved on from this run's commit eeeeeee"),
])
def test_a_list_that_may_not_be_whole_is_cannot_tell(
        files: int, claims: int | None, moves_to: str | None, why: str) -> None:
    with GitHubServer(token=TOKEN) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=[f"f{i}" for i in range(files)],
                      claims=claims, moves_to=moves_to)
        with api(gh) as client, pytest.raises(PullFilesError) as e:
            listed_files(client, PR, HEAD_SHA)
    assert why in str(e.value)


def test_failures_name_why_without_the_token() -> None:
    with GitHubServer(token=TOKEN) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=["a"])
        with api(gh) as client, pytest.raises(PullFilesError, match=r"GET /pulls/8: HTTP 404"):
            listed_files(client, PR + 1, HEAD_SHA)
        with api(gh, deadline_s=0.0) as client, pytest.raises(
                PullFilesError, match="the changed-file listing's time ran out"):
            listed_files(client, PR, HEAD_SHA)
        with PullFilesApi(gh.url, "ghs_wrong", REPO, deadline_s=30) as client, \
                pytest.raises(PullFilesError) as e:
            listed_files(client, PR, HEAD_SHA)
    assert str(e.value) == "GET /pulls/7: HTTP 401" and "ghs_" not in str(e.value)


def env_for(tmp_path: Path, gh: GitHubServer, event: dict[str, object],
            name: str = "pull_request") -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    return {"GITHUB_EVENT_NAME": name, "GITHUB_EVENT_PATH": str(path), "GITHUB_API_URL": gh.url,
            "GITHUB_REPOSITORY": REPO, "GITHUB_BASE_REF": "main",
            "GITHUB_WORKSPACE": str(tmp_path)}


def test_the_action_lists_only_pull_requests_git_cannot_tell(tmp_path: Path) -> None:
    fork = pull_request_event(PR, head_repo="fork/repo", head_sha=HEAD_SHA)
    with GitHubServer(token=TOKEN) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=[f"f{i}" for i in range(3000)])
        out = io.StringIO()
        env = env_for(tmp_path, gh, fork, "pull_request_target")
        assert changed_files_arguments(env, TOKEN, False, tmp_path, "out", out) == []
        assert "::warning title=mcptest%3A changed evidence::" in out.getvalue()
        assert "changes 3,000 files, GitHub's limit is 3,000): every one counts as changed" in (
            out.getvalue())
        assert changed_files_arguments(env, "", False, tmp_path, "out", out) == []  # no token
        push = env_for(tmp_path, gh, push_event(), "push")
        assert changed_files_arguments(push, TOKEN, True, tmp_path, "out", out) == []
        asked = len(gh.requests)

        # our own pull request is not listed (nothing rests on it) unless the input distrusts
        own = env_for(tmp_path, gh, pull_request_event(PR, head_sha=HEAD_SHA))
        assert changed_files_arguments(own, TOKEN, False, tmp_path, "out", out) == []
        assert len(gh.requests) == asked
        assert changed_files_arguments(own, TOKEN, True, tmp_path, "out", out) == []
        assert len(gh.requests) == asked + 1

        # git can tell: it is preferred, and the API is not asked
        def git(*args: str) -> None:
            subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                            *args], cwd=tmp_path, check=True, capture_output=True)

        git("init", "-q", "-b", "main")
        git("commit", "-q", "--allow-empty", "-m", "base")
        git("update-ref", "refs/remotes/origin/main", "HEAD")
        before = len(gh.requests)
        assert changed_files_arguments(env, TOKEN, False, tmp_path, "out", out) == []
        assert len(gh.requests) == before
    assert asked == 1  # the pull request, read once: 3,000 files are not listed at all
    assert out.getvalue().count("::warning") == 2


def test_the_list_the_action_hands_to_the_cli(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # as in the Action's image: no git
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "changed-files.json").symlink_to(tmp_path / "elsewhere")  # committed
    fork = pull_request_event(PR, head_repo="fork/repo", head_sha=HEAD_SHA)
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=["cassettes/a.json", ("b.json", "a/b.json")])
        out = io.StringIO()
        argv = changed_files_arguments(env_for(tmp_path, gh, fork), TOKEN, False, tmp_path,
                                       "out", out)
    assert argv == ["--evidence-changed-files", "out/changed-files.json"]
    written = tmp_path / "out" / "changed-files.json"
    assert not written.is_symlink() and not (tmp_path / "elsewhere").exists()
    assert json.loads(written.read_text()) == {
        "source": "the GitHub API's changed-file list of pull request #7",
        "files": ["cassettes/a.json", "b.json", "a/b.json"]}
    assert "the GitHub API lists 3 changed path(s) of pull request #7" in out.getvalue()
    assert "No such file or directory: 'git'" in out.getvalue()


class _Broken(BaseHTTPRequestHandler):
    """A GitHub that answers wrongly: `/repos/o/r/pulls/1` not JSON, `/pulls/2` a pull request
    without its head, `/pulls/3/files` an object, `/pulls/4` never (until the test ends)."""

    protocol_version = "HTTP/1.1"
    release: threading.Event

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""

    def do_GET(self) -> None:
        number = int(self.path.split("/pulls/")[1].split("/")[0].split("?")[0])
        if number == 4:
            self.release.wait(30)
            return
        pull = {"head": {"sha": HEAD_SHA}, "changed_files": 1}
        body = {1: b"<html>rate limited</html>", 2: json.dumps({"changed_files": 1}).encode(),
                3: json.dumps({"files": []} if "/files" in self.path else pull).encode()}[number]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_answers_that_are_not_the_list_and_a_server_that_never_answers() -> None:
    release = threading.Event()
    handler = type("Handler", (_Broken,), {"release": release})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for number, why in ((1, "GET /pulls/1: JSONDecodeError"),
                            (2, "GET /pulls/2: not a pull request"),
                            (3, "GET /pulls/3/files: not a list of files"),
                            (4, "GET /pulls/4: ReadTimeout")):
            with PullFilesApi(url, TOKEN, "o/r", deadline_s=30, read_timeout_s=0.5) as client, \
                    pytest.raises(PullFilesError) as e:
                listed_files(client, number, HEAD_SHA)
            assert str(e.value) == why
    finally:
        release.set()
        server.shutdown()
        server.server_close()
