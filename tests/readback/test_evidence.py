"""Which committed files a pull request changed (readback/evidence.py): git's merge-base diff,
a fork's pull request from the event file, and what a run says when git cannot tell."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support.github_events import pull_request_event

from mcptest.readback.evidence import changed_since, evidence_for, fork_pull_request
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.changed_evidence import mark_changed_evidence


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=cwd, check=True, capture_output=True)


def test_files_that_differ_from_the_merge_base_committed_or_not(tmp_path: Path) -> None:
    for name in ("kept.json", "edited.json"):
        (tmp_path / name).write_text("{}")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "base")
    git(tmp_path, "checkout", "-qb", "pr")
    (tmp_path / "edited.json").write_text('{"x": 1}')
    git(tmp_path, "commit", "-qam", "edit")
    (tmp_path / "new.json").write_text("{}")  # untracked
    found = changed_since("main", tmp_path / ".", distrust=True)
    assert found.unknown is None
    assert found.changed(tmp_path / "edited.json") and found.changed(tmp_path / "new.json")
    assert not found.changed(tmp_path / "kept.json")


def test_without_git_nothing_is_trusted_when_distrusting(tmp_path: Path) -> None:
    lost = changed_since("main", tmp_path, distrust=True)
    assert lost.unknown is not None and lost.changed(tmp_path / "any.json")
    trusting = changed_since("main", tmp_path)
    assert not trusting.changed(tmp_path / "any.json")
    # a pull request's implicit base that git cannot find says nothing; an explicit one warns
    assert evidence_for(None, False, {"GITHUB_BASE_REF": "main"}, tmp_path) is None
    explicit = evidence_for("main", False, {}, tmp_path)
    assert explicit is not None and explicit.unknown is not None
    report = build_report(suites=[], tests=[], servers=[], started_at="2026-01-01T00:00:00Z",
                          finished_at="2026-01-01T00:00:01Z", duration_ms=1.0,
                          judge=JudgeTotals())
    said = mark_changed_evidence(report, explicit).warnings
    assert len(said) == 1 and said[0].startswith("could not tell which cassettes and records")
    assert mark_changed_evidence(report, lost).warnings == []  # nothing rested on evidence


def test_a_forks_pull_request_is_told_by_its_event(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}
    event.write_text(json.dumps(pull_request_event(1)))
    assert not fork_pull_request(env)
    event.write_text(json.dumps(pull_request_event(1, head_repo="someone/fork")))
    assert fork_pull_request(env)
    assert fork_pull_request({**env, "GITHUB_EVENT_NAME": "pull_request_target"})
    assert not fork_pull_request({**env, "GITHUB_EVENT_NAME": "push"})
    event.write_text("{")
    assert fork_pull_request(env)  # a pull request we cannot read is not taken for our own
