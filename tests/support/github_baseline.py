"""The baseline endpoints of the loopback GitHub server (`github_server.py` routes to them).

    gh.history([("c3", "2026-11-20T10:00:00Z"), ("c2", …), ("c1", …)])   # base branch, newest first
    gh.merge_base = "c3"                          # what the compare endpoint answers
    gh.artifact("mcptest-report", "c2", zip_bytes, expired=False)   # a push run's stored report

Endpoints: `GET /repos/{o}/{r}/compare/{base}...{head}` (`merge_base_commit.sha`),
`GET /repos/{o}/{r}/commits?sha=&per_page=` (the history from `sha`, newest first),
`GET /repos/{o}/{r}/actions/artifacts?name=&per_page=&page=`, and
`GET /repos/{o}/{r}/actions/artifacts/{id}/zip`, which answers 302 to `/blob/{id}` like GitHub's
redirect to signed storage; `/blob/{id}` needs no token and records whether one was sent anyway
(`blob_authorizations`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

_COMPARE = re.compile(r"^/repos/([^/]+)/([^/]+)/compare/(.+)\.\.\.(.+)$")
_COMMITS = re.compile(r"^/repos/([^/]+)/([^/]+)/commits$")
_ARTIFACTS = re.compile(r"^/repos/([^/]+)/([^/]+)/actions/artifacts$")
_ZIP = re.compile(r"^/repos/([^/]+)/([^/]+)/actions/artifacts/(\d+)/zip$")
_BLOB = re.compile(r"^/blob/(\d+)$")


@dataclass
class BaselineState:
    merge_base: str = ""
    commits: list[tuple[str, str]] = field(default_factory=list)
    artifacts: dict[int, dict[str, Any]] = field(default_factory=dict)
    blobs: dict[int, bytes] = field(default_factory=dict)
    blob_authorizations: list[str | None] = field(default_factory=list)
    next_id: int = 500
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, head_sha: str, data: bytes, expired: bool, created_at: str) -> int:
        with self.lock:
            self.next_id += 1
            aid = self.next_id
            self.artifacts[aid] = {
                "id": aid, "name": name, "expired": expired, "created_at": created_at,
                "size_in_bytes": len(data),
                "archive_download_url": f"/repos/x/y/actions/artifacts/{aid}/zip",
                "workflow_run": {"id": aid * 10, "head_branch": "main", "head_sha": head_sha},
            }
            self.blobs[aid] = data
            return aid


def unauthenticated(state: BaselineState, path: str, authorization: str | None
                    ) -> tuple[int, bytes] | None:
    """`/blob/{id}`: the signed-storage stand-in, answered without a token."""
    if m := _BLOB.match(path):
        with state.lock:
            state.blob_authorizations.append(authorization)
            data = state.blobs.get(int(m[1]))
        return (200, data) if data is not None else (404, b"")
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
    if m := _ZIP.match(path):
        aid = int(m[3])
        if aid not in state.artifacts or state.artifacts[aid]["expired"]:
            return 410 if aid in state.artifacts else 404, {"message": "Gone"}, {}
        return 302, None, {"Location": f"http://{host}{prefix}/blob/{aid}?sig=signed"}
    return None
