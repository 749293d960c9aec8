"""The baseline endpoints of the loopback GitHub server (`github_server.py` routes to them).

    gh.history([("c3", "2026-11-20T10:00:00Z"), ("c2", …), ("c1", …)])   # base branch, newest first
    gh.merge_base = "c3"                          # what the compare endpoint answers
    gh.artifact("mcptest-report", "c2", zip_bytes, expired=False)   # a push run's stored report
    gh.add(…, event="pull_request", head_repository=FORK)           # a fork PR run's artifact

Endpoints: `GET /repos/{o}/{r}/compare/{base}...{head}` (`merge_base_commit.sha`),
`GET /repos/{o}/{r}/commits?sha=&per_page=` (the history from `sha`, newest first),
`GET /repos/{o}/{r}/actions/artifacts?name=&per_page=&page=`,
`GET /repos/{o}/{r}/actions/runs/{run_id}` (the run that stored an artifact: its `event`,
`head_branch`, `head_sha`, `repository` and `head_repository`, as GitHub describes a workflow
run), and `GET /repos/{o}/{r}/actions/artifacts/{id}/zip`, which answers 302 to `/blob/{id}`
like GitHub's redirect to signed storage; `/blob/{id}` needs no token, records whether one was
sent anyway (`blob_authorizations`), and sends the bytes at once or, with `drip_s`, one byte
every `drip_s` seconds (storage that never quite stops). Every answer is completed to GitHub's
schema by `github_openapi.shaped` (the server validates it on the way out).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

_COMPARE = re.compile(r"^/repos/([^/]+)/([^/]+)/compare/(.+)\.\.\.(.+)$")
_COMMITS = re.compile(r"^/repos/([^/]+)/([^/]+)/commits$")
_ARTIFACTS = re.compile(r"^/repos/([^/]+)/([^/]+)/actions/artifacts$")
_RUN = re.compile(r"^/repos/([^/]+)/([^/]+)/actions/runs/(\d+)$")
_ZIP = re.compile(r"^/repos/([^/]+)/([^/]+)/actions/artifacts/(\d+)/zip$")
_BLOB = re.compile(r"^/blob/(\d+)$")
REPO_IDS = {"octo/repo": 1296269, "fork/repo": 7770001}
"""Repository ids the stand-in knows (the base repository and a fork of it)."""


def repository(full_name: str) -> dict[str, Any]:
    owner, name = full_name.split("/")
    return {"id": REPO_IDS.get(full_name, 4242), "name": name, "full_name": full_name,
            "owner": {"login": owner}, "fork": full_name != "octo/repo",
            "html_url": f"https://github.com/{full_name}"}


@dataclass
class Blob:
    data: bytes
    drip_s: float | None = None


@dataclass
class BaselineState:
    merge_base: str = ""
    commits: list[tuple[str, str]] = field(default_factory=list)
    artifacts: dict[int, dict[str, Any]] = field(default_factory=dict)
    runs: dict[int, dict[str, Any]] = field(default_factory=dict)
    blobs: dict[int, Blob] = field(default_factory=dict)
    blob_authorizations: list[str | None] = field(default_factory=list)
    next_id: int = 500
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, head_sha: str, data: bytes, expired: bool, created_at: str, *,
            event: str = "push", head_repository: str = "octo/repo", head_branch: str = "main",
            repo: str = "octo/repo", drip_s: float | None = None) -> int:
        """An artifact `name` stored by a run of `event` on `head_repository`'s `head_branch` at
        `head_sha` (a push run of the base repository's main by default)."""
        with self.lock:
            self.next_id += 1
            aid = self.next_id
            run_id = aid * 10
            self.artifacts[aid] = {
                "id": aid, "node_id": f"MDg6QXJ0aWZhY3Q{aid}", "name": name,
                "expired": expired, "created_at": created_at, "updated_at": created_at,
                "expires_at": "2026-12-31T00:00:00Z", "size_in_bytes": len(data),
                "url": f"https://api.github.com/repos/{repo}/actions/artifacts/{aid}",
                "archive_download_url": f"https://api.github.com/repos/{repo}/actions/artifacts/"
                                        f"{aid}/zip",
                "workflow_run": {"id": run_id, "repository_id": REPO_IDS[repo],
                                 "head_repository_id": repository(head_repository)["id"],
                                 "head_branch": head_branch, "head_sha": head_sha},
            }
            self.runs[run_id] = {
                "id": run_id, "event": event, "head_branch": head_branch, "head_sha": head_sha,
                "status": "completed", "conclusion": "success", "path": ".github/workflows/mcp.yml",
                "repository": repository(repo), "head_repository": repository(head_repository),
                "created_at": created_at, "updated_at": created_at,
            }
            self.blobs[aid] = Blob(data, drip_s)
            return aid


def unauthenticated(state: BaselineState, path: str, authorization: str | None) -> Blob | None:
    """`/blob/{id}`: the signed-storage stand-in, answered without a token."""
    if m := _BLOB.match(path):
        with state.lock:
            state.blob_authorizations.append(authorization)
            return state.blobs.get(int(m[1]), Blob(b""))
    return None


def route(state: BaselineState, path: str, query: dict[str, list[str]], host: str, prefix: str
          ) -> tuple[int, Any, dict[str, str]] | None:
    """(status, JSON payload, headers) for a baseline endpoint, or None for another path."""
    if _COMPARE.match(path):
        return 200, {"merge_base_commit": {"sha": state.merge_base}}, {}
    if _COMMITS.match(path):
        sha = query.get("sha", [""])[0]
        per_page = int(query.get("per_page", ["30"])[0])
        shas = [c[0] for c in state.commits]
        if sha not in shas:
            return 404, {"message": "No commit found"}, {}
        start = shas.index(sha)
        return 200, [{"sha": s, "commit": {"committer": {"date": d}}}
                     for s, d in state.commits[start:start + per_page]], {}
    if _ARTIFACTS.match(path):
        name = query.get("name", [None])[0]
        per_page = int(query.get("per_page", ["30"])[0])
        page = int(query.get("page", ["1"])[0])
        with state.lock:
            every = [a for a in state.artifacts.values() if name is None or a["name"] == name]
        chunk = every[(page - 1) * per_page: page * per_page]
        return 200, {"total_count": len(every), "artifacts": chunk}, {}
    if m := _RUN.match(path):
        with state.lock:
            run = state.runs.get(int(m[3]))
        return (200, run, {}) if run is not None else (404, {"message": "Not Found"}, {})
    if m := _ZIP.match(path):
        aid = int(m[3])
        if aid not in state.artifacts or state.artifacts[aid]["expired"]:
            return 410 if aid in state.artifacts else 404, {"message": "Gone"}, {}
        return 302, None, {"Location": f"http://{host}{prefix}/blob/{aid}?sig=signed"}
    return None
