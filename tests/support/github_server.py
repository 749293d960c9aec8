"""A loopback stand-in for the GitHub REST endpoints the Action's sticky comment uses.

    with GitHubServer(token="t0ken", login="github-actions[bot]") as gh:
        env["GITHUB_API_URL"] = gh.url
        ...                                   # run the Action
        gh.comments(7)                        # comments of PR 7, oldest first
        gh.requests                           # (method, path) of every request, in order

Endpoints: `GET /user`, `GET|POST /repos/{o}/{r}/issues/{n}/comments` (listing is paginated with
`per_page`/`page` and a `Link: rel="next"` header like GitHub's), `PATCH|DELETE
/repos/{o}/{r}/issues/comments/{id}`, and for the tracking issue `GET|POST /repos/{o}/{r}/issues`
(listing filtered by `state` and `labels`, paginated the same way) and `PATCH
/repos/{o}/{r}/issues/{n}` (title, body, state, state_reason). Every request must carry `Authorization: Bearer <token>`
(else 401). `actions_token=True` makes `GET /user` answer 403 like the Actions token does;
`read_only=True` makes every write answer 403 "Resource not accessible by integration" like a fork
PR's token; `prefix="/api/v3"` serves under a path like GitHub Enterprise Server does. Comments
and issues live in memory; `seed()` adds a comment and `seed_issue()` an issue (or a pull request,
which GitHub's issue listing also returns) as another user; `issues()` lists them.
The compare, commits, artifacts, workflow run and artifact download endpoints a baseline is
found through are in `github_baseline.py` (`gh.baseline`); a pull request and its changed files
in `github_pulls.py` (`gh.pulls`).

It speaks only what GitHub's published description allows (`github_openapi.py`): every request
it receives and every answer it sends (its payload completed to the operation's schema first)
is validated against `@octokit/openapi`; what does not validate is collected in `violations`,
and leaving the `with` block fails the test that caused it. Signed storage (`/blob/…`) is not
part of the REST API and is not checked.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from support.github_baseline import BaselineState, Blob, route, unauthenticated
from support.github_openapi import (
    operation_schema,
    request_violation,
    response_violation,
    rest_description,
    shaped,
)
from support.github_pulls import PullsState, route_pulls

_LIST = re.compile(r"^/repos/([^/]+)/([^/]+)/issues/(\d+)/comments$")
_ONE = re.compile(r"^/repos/([^/]+)/([^/]+)/issues/comments/(\d+)$")
_ISSUES = re.compile(r"^/repos/([^/]+)/([^/]+)/issues$")
_ISSUE = re.compile(r"^/repos/([^/]+)/([^/]+)/issues/(\d+)$")


@dataclass
class _State:
    token: str
    login: str
    actions_token: bool
    read_only: bool
    prefix: str = ""
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_id: int = 1000
    next_issue: int = 100
    lock: threading.RLock = field(default_factory=threading.RLock)  # _send takes it too
    baseline: BaselineState = field(default_factory=BaselineState)
    pulls: PullsState = field(default_factory=PullsState)
    violations: list[str] = field(default_factory=list)


class GitHubServer:
    """The fake API on 127.0.0.1 and a free port, served from a daemon thread."""

    def __init__(self, token: str = "t0ken", login: str = "github-actions[bot]",
                 *, actions_token: bool = True, read_only: bool = False, port: int = 0,
                 prefix: str = "") -> None:
        rest_description()  # loaded (or the test skipped) before anything is served
        self.state = _State(token, login, actions_token, read_only, prefix.rstrip("/"))
        handler = type("Handler", (_Handler,), {"state": self.state})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{self.state.prefix}"

    def __enter__(self) -> GitHubServer:
        self._thread.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if kind is None and self.state.violations:
            raise AssertionError("GitHub's description does not allow what the stand-in "
                                 "received or sent:\n" + "\n".join(self.state.violations))

    @property
    def violations(self) -> list[str]:
        with self.state.lock:
            return list(self.state.violations)

    @property
    def baseline(self) -> BaselineState:
        """History, merge-base and stored artifacts for `baseline: auto` (github_baseline.py)."""
        return self.state.baseline

    @property
    def pulls(self) -> PullsState:
        """Pull requests and their changed files (github_pulls.py)."""
        return self.state.pulls

    def seed(self, number: int, body: str, login: str, repo: str = "octo/repo") -> int:
        """Add a comment written by someone else (or by us, in an earlier run)."""
        return _add(self.state, repo, number, body, login)

    def seed_issue(self, title: str, body: str, login: str, labels: list[str],
                   *, pull_request: bool = False, repo: str = "octo/repo") -> int:
        """Add an open issue (or pull request) written by `login`; returns its number."""
        return _add_issue(self.state, repo, title, body, login, labels, pull_request)

    def issues(self, state: str | None = None) -> list[dict[str, Any]]:
        """Copies of every issue (pull requests too), by number; `state` filters."""
        with self.state.lock:
            return [_public(copy.deepcopy(i)) for i in self.state.issues.values()
                    if state is None or i["state"] == state]

    def comments(self, number: int) -> list[dict[str, Any]]:
        """Copies of the PR's comments as they are now, oldest first."""
        with self.state.lock:
            return [copy.deepcopy(c) for c in self.state.comments.values()
                    if c["_number"] == number]

    @property
    def requests(self) -> list[tuple[str, str]]:
        with self.state.lock:
            return list(self.state.requests)

    def snapshot(self) -> dict[str, Any]:
        """Everything, as JSON-able data (the Docker test reads it from a file)."""
        with self.state.lock:
            return {"comments": list(self.state.comments.values()),
                    "requests": [list(r) for r in self.state.requests]}


def _add(state: _State, repo: str, number: int, body: str, login: str) -> int:
    with state.lock:
        state.next_id += 1
        cid = state.next_id
        state.comments[cid] = {
            "id": cid, "body": body, "user": {"login": login, "type": "Bot"},
            "html_url": f"https://github.com/{repo}/pull/{number}#issuecomment-{cid}",
            "_number": number, "_repo": repo,
        }
        return cid


def _add_issue(state: _State, repo: str, title: str, body: str, login: str,
               labels: list[str], pull_request: bool = False) -> int:
    with state.lock:
        state.next_issue += 1
        number = state.next_issue
        kind = "pull" if pull_request else "issues"
        state.issues[number] = {
            "number": number, "title": title, "body": body, "state": "open",
            "state_reason": None, "user": {"login": login, "type": "Bot"},
            "labels": [{"name": name} for name in labels],
            "html_url": f"https://github.com/{repo}/{kind}/{number}", "_repo": repo,
            **({"pull_request": {"url": f"https://api.github.com/repos/{repo}/pulls/{number}"}}
               if pull_request else {}),
        }
        return number


class _Handler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read `requests` instead."""

    _api: tuple[str, str, str] | None = None
    """(method, path, query) of the REST request being answered (None: not the REST API)."""

    def _send(self, status: int, payload: Any = None,
              headers: dict[str, str] | None = None) -> None:
        headers = {"Content-Type": "application/json; charset=utf-8", **(headers or {})}
        if self._api is not None and payload is not None:
            schema = operation_schema(self._api[0], self._api[1], status)
            payload = payload if schema is None else shaped(schema, payload)
        data = b"" if payload is None else json.dumps(payload).encode()
        if self._api is not None:
            method, path, query = self._api
            if why := response_violation(method, path, query, status, data, headers):
                with self.state.lock:
                    self.state.violations.append(why)
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_blob(self, blob: Blob) -> None:
        """Signed storage: the bytes at once, or one every `drip_s` seconds until the client
        hangs up (storage that never quite stops)."""
        self.send_response(200 if blob.data else 404)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(blob.data)))
        self.end_headers()
        try:
            if blob.drip_s is None:
                self.wfile.write(blob.data)
                return
            for k in range(len(blob.data)):
                self.wfile.write(blob.data[k:k + 1])
                self.wfile.flush()
                time.sleep(blob.drip_s)  # the slowness is the behaviour under test
        except (BrokenPipeError, ConnectionResetError):
            return

    def _body(self) -> tuple[dict[str, Any], bytes]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        parsed = json.loads(raw or b"{}")
        return (parsed if isinstance(parsed, dict) else {}), raw

    def _handle(self, method: str) -> None:
        state = self.state
        self._api = None
        parts = urlsplit(self.path)
        if not parts.path.startswith(state.prefix + "/"):
            return self._send(404, {"message": "Not Found"})
        parts = parts._replace(path=parts.path.removeprefix(state.prefix))
        body, raw = self._body() if method in ("POST", "PATCH") else ({}, b"")
        with state.lock:
            state.requests.append((method, self.path))
            if body:
                state.bodies.append(body)
        if blob := unauthenticated(state.baseline, parts.path, self.headers.get("Authorization")):
            return self._send_blob(blob)
        self._api = (method, parts.path, parts.query)
        if why := request_violation(method, parts.path, parts.query, dict(self.headers),
                                    raw or None):
            with state.lock:
                state.violations.append(why)
            self._api = None  # answered, not routed: the request is what failed
            return self._send(400, {"message": "Invalid request (see the stand-in's violations)"})
        if self.headers.get("Authorization") != f"Bearer {state.token}":
            return self._send(401, {"message": "Bad credentials"})
        host, query = self.headers.get("Host", "127.0.0.1"), parse_qs(parts.query)
        if found := (route(state.baseline, parts.path, query, host, state.prefix)
                     or route_pulls(state.pulls, parts.path, query, host, state.prefix)):
            return self._send(*found)
        forbidden = {"message": "Resource not accessible by integration"}
        if parts.path == "/user" and method == "GET":
            if state.actions_token:
                return self._send(403, forbidden)
            return self._send(200, {"login": state.login})
        if m := _LIST.match(parts.path):
            repo, number = f"{m[1]}/{m[2]}", int(m[3])
            if method == "GET":
                return self._list(repo, number, parse_qs(parts.query))
            if method == "POST":
                if state.read_only:
                    return self._send(403, forbidden)
                if len(str(body.get("body", ""))) > 65_536:
                    return self._send(422, {"message": "Body is too long"})
                cid = _add(state, repo, number, str(body.get("body", "")), state.login)
                return self._send(201, _public(state.comments[cid]))
        if m := _ISSUES.match(parts.path):
            repo = f"{m[1]}/{m[2]}"
            if method == "GET":
                return self._list_issues(repo, parse_qs(parts.query))
            if method == "POST":
                if state.read_only:
                    return self._send(403, forbidden)
                labels = [str(x) for x in body.get("labels") or []]
                number = _add_issue(state, repo, str(body.get("title", "")),
                                    str(body.get("body", "")), state.login, labels)
                return self._send(201, _public(state.issues[number]))
        if (m := _ISSUE.match(parts.path)) and method == "PATCH":
            if state.read_only:
                return self._send(403, forbidden)
            with state.lock:
                issue = state.issues.get(int(m[3]))
                if issue is None or issue["_repo"] != f"{m[1]}/{m[2]}":
                    return self._send(404, {"message": "Not Found"})
                if body.get("state") not in (None, "open", "closed"):
                    return self._send(422, {"message": "Validation Failed"})
                for key in ("title", "body", "state", "state_reason"):
                    if key in body:
                        issue[key] = body[key]
                return self._send(200, _public(issue))
        if m := _ONE.match(parts.path):
            cid = int(m[3])
            if state.read_only:
                return self._send(403, forbidden)
            with state.lock:
                comment = state.comments.get(cid)
                if comment is None or comment["_repo"] != f"{m[1]}/{m[2]}":
                    return self._send(404, {"message": "Not Found"})
                if method == "PATCH":
                    if len(str(body.get("body", ""))) > 65_536:
                        return self._send(422, {"message": "Body is too long"})
                    comment["body"] = str(body.get("body", ""))
                    return self._send(200, _public(comment))
                if method == "DELETE":
                    del state.comments[cid]
                    return self._send(204)
        return self._send(404, {"message": "Not Found"})

    def _list(self, repo: str, number: int, query: dict[str, list[str]]) -> None:
        per_page = min(int(query.get("per_page", ["30"])[0]), 100)
        page = int(query.get("page", ["1"])[0])
        with self.state.lock:
            every = [_public(c) for c in self.state.comments.values()
                     if c["_number"] == number and c["_repo"] == repo]
        chunk = every[(page - 1) * per_page: page * per_page]
        headers = {}
        if page * per_page < len(every):
            host = self.headers.get("Host", "127.0.0.1")
            nxt = f"http://{host}{self.state.prefix}/repos/{repo}/issues/{number}/comments"
            headers["Link"] = f'<{nxt}?per_page={per_page}&page={page + 1}>; rel="next"'
        self._send(200, chunk, headers)

    def _list_issues(self, repo: str, query: dict[str, list[str]]) -> None:
        want_state = query.get("state", ["open"])[0]
        want_labels = {x for x in query.get("labels", [""])[0].split(",") if x}
        with self.state.lock:
            every = [_public(i) for i in self.state.issues.values() if i["_repo"] == repo
                     and want_state in ("all", i["state"])
                     and want_labels <= {label["name"] for label in i["labels"]}]
        per_page = min(int(query.get("per_page", ["30"])[0]), 100)
        page = int(query.get("page", ["1"])[0])
        headers = {}
        if page * per_page < len(every):
            host = self.headers.get("Host", "127.0.0.1")
            rest = "&".join(f"{k}={v[0]}" for k, v in query.items() if k != "page")
            nxt = f"http://{host}{self.state.prefix}/repos/{repo}/issues?{rest}&page={page + 1}"
            headers["Link"] = f'<{nxt}>; rel="next"'
        self._send(200, every[(page - 1) * per_page: page * per_page], headers)

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_DELETE(self) -> None:
        self._handle("DELETE")


def _public(item: dict[str, Any]) -> dict[str, Any]:
    """A comment or issue as the API shows it: an open issue has no `state_reason` (the
    description's enum has no null, though the field is nullable)."""
    return {k: v for k, v in item.items() if not k.startswith("_")
            and not (k == "state_reason" and v is None)}

