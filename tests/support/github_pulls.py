"""The pull request endpoints of the loopback GitHub server (`github_server.py` routes to them).

    gh.pulls.open(7, head_sha="e" * 40, files=["cassettes/a.json", ("new.json", "old.json")])
    gh.pulls.forbidden = True          # 403, as a token without `pull-requests: read` gets

Endpoints: `GET /repos/{o}/{r}/pulls/{n}` (the pull request: its `head.sha`, `base.ref` and
`changed_files`) and `GET /repos/{o}/{r}/pulls/{n}/files?per_page=&page=` (30 a page by
default, at most 100, with a `Link` header naming the next and last pages like GitHub's; a
renamed file is `("new", "old")`: status `renamed` with `previous_filename`). Like GitHub it
lists at most 3,000 files, however many the pull request changes (`changed_files` says how
many). `moves_to` is a head the pull request moves to after its files are first listed (a push
during the run); `claims` a `changed_files` count other than the list's. Every answer is
completed to GitHub's schema by `github_openapi.shaped` (the server validates it on the way
out).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

_PULL = re.compile(r"^/repos/([^/]+)/([^/]+)/pulls/(\d+)$")
_FILES = re.compile(r"^/repos/([^/]+)/([^/]+)/pulls/(\d+)/files$")
GITHUB_LIMIT = 3000
File = str | tuple[str, str]


@dataclass
class Pull:
    head_sha: str
    files: list[File]
    base_ref: str = "main"
    moves_to: str | None = None
    claims: int | None = None


@dataclass
class PullsState:
    pulls: dict[int, Pull] = field(default_factory=dict)
    forbidden: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self, number: int, *, head_sha: str, files: list[File], base_ref: str = "main",
             moves_to: str | None = None, claims: int | None = None) -> None:
        with self.lock:
            self.pulls[number] = Pull(head_sha, list(files), base_ref, moves_to, claims)


def _entry(repo: str, file: File) -> dict[str, Any]:
    name, old = (file, None) if isinstance(file, str) else file
    return {"sha": "b" * 40, "filename": name, "status": "modified" if old is None else "renamed",
            "additions": 1, "deletions": 1, "changes": 2,
            "blob_url": f"https://github.com/{repo}/blob/{'e' * 40}/{name}",
            "raw_url": f"https://github.com/{repo}/raw/{'e' * 40}/{name}",
            "contents_url": f"https://api.github.com/repos/{repo}/contents/{name}",
            **({} if old is None else {"previous_filename": old})}


def route_pulls(state: PullsState, path: str, query: dict[str, list[str]], host: str,
                prefix: str) -> tuple[int, Any, dict[str, str]] | None:
    """(status, JSON payload, headers) for a pull request endpoint, or None for another path."""
    m = _PULL.match(path) or _FILES.match(path)
    if m is None:
        return None
    if state.forbidden:
        return 403, {"message": "Resource not accessible by integration",
                     "documentation_url": "https://docs.github.com/rest"}, {}
    repo, number = f"{m[1]}/{m[2]}", int(m[3])
    with state.lock:
        pull = state.pulls.get(number)
        if pull is None:
            return 404, {"message": "Not Found"}, {}
        if m.re is _PULL:
            count = len(pull.files) if pull.claims is None else pull.claims
            return 200, {"number": number, "state": "open", "changed_files": count,
                         "head": {"sha": pull.head_sha, "ref": "feature"},
                         "base": {"sha": "f" * 40, "ref": pull.base_ref}}, {}
        every = [_entry(repo, f) for f in pull.files[:GITHUB_LIMIT]]
        if pull.moves_to is not None:
            pull.head_sha, pull.moves_to = pull.moves_to, None
    per_page = min(int(query.get("per_page", ["30"])[0]), 100)
    page = int(query.get("page", ["1"])[0])
    last = max((len(every) + per_page - 1) // per_page, 1)
    url = f"http://{host}{prefix}/repos/{repo}/pulls/{number}/files?per_page={per_page}&page="
    links = [f'<{url}{page + 1}>; rel="next"', f'<{url}{last}>; rel="last"'] if page < last \
        else []
    headers = {"Link": ", ".join(links)} if links else {}
    return 200, every[(page - 1) * per_page: page * per_page], headers
