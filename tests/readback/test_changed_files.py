"""A changed-file list handed to the CLI (`--evidence-changed-files`, readback/changed_files.py):
read as hostile input, and used only when git cannot tell."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mcptest.errors import ReadBackError
from mcptest.readback.changed_files import MAX_LIST_BYTES, read_changed_files
from mcptest.readback.evidence import evidence_for
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.changed_evidence import mark_changed_evidence


def test_lines_and_json_name_files_under_the_root(tmp_path: Path) -> None:
    lines = tmp_path / "list.txt"
    lines.write_text("cassettes/a.json\r\n\n  \nsub dir/b.json\n", encoding="utf-8")
    got = read_changed_files(lines, tmp_path / "repo")
    assert got.files == {(tmp_path / "repo/cassettes/a.json").resolve(),
                         (tmp_path / "repo/sub dir/b.json").resolve()}
    assert got.count == 2 and got.source == "the changed-file list given"
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps({"source": "the GitHub API's changed-file list of pull "
                                            "request #7", "files": ["a.json", "./b/c.json"]}))
    got = read_changed_files(listed, tmp_path)
    assert got.files == {tmp_path / "a.json", tmp_path / "b/c.json"}
    assert got.source == "the GitHub API's changed-file list of pull request #7"
    listed.write_text(json.dumps(["x\ny.json"]))  # JSON can name what a line cannot
    assert read_changed_files(listed, tmp_path).files == {tmp_path / "x\ny.json"}


@pytest.mark.parametrize(("text", "why", "where"), [
    ("ok.json\n/etc/passwd\n", "an absolute path", ":2:1: "),
    ("ok.json\nsub/../../x.json\n", "a '..' part", ":2:1: "),
    ("a\x00b.json\n", "a NUL", ":1:1: "),
    ('["ok.json", "a\\u0000b"]', "a NUL", ": [1]: "),
    ('["ok.json", "/abs"]', "an absolute path", ": [1]: "),
    ('{"files": ["ok.json", 3]}', "not a path", ": files[1]: "),
    ('{"files": ["ok.json"], "extra": 1}', "unknown key 'extra'", ": extra: "),
    ('{"files": [], "source": "<b>hi</b>"}', "not short plain text", ": source: "),
    ('{"files": "a.json"}', "not a list of paths", ": files: "),
    ('[["a.json"]]', "not a path", ": [0]: "),
    ("[1e400]", "out of", ":1:"),
    ("[" * 50 + "]" * 50, "nest", ":1:"),
    ('["a.json",', "not JSON", ":1:"),
    ('[""]', "an empty path", ": [0]: "),
])
def test_hostile_lists_are_refused_at_their_line_or_index(
        tmp_path: Path, text: str, why: str, where: str) -> None:
    bad = tmp_path / "list"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ReadBackError) as e:
        read_changed_files(bad, tmp_path)
    assert why in e.value.message
    assert str(e.value).startswith(f"{bad}{where}"), str(e.value)


def test_not_a_regular_file_too_large_or_not_utf8_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ReadBackError, match="not a regular file"):
        read_changed_files(fifo, tmp_path)  # never blocks on a FIFO
    with pytest.raises(ReadBackError, match="is a directory"):
        read_changed_files(tmp_path, tmp_path)
    big = tmp_path / "big.txt"
    big.write_bytes(b"a.json\n" * (MAX_LIST_BYTES // 7 + 1))
    with pytest.raises(ReadBackError, match="larger than"):
        read_changed_files(big, tmp_path)
    many = tmp_path / "many.txt"
    many.write_text("".join(f"f{i}.json\n" for i in range(20_001)))
    with pytest.raises(ReadBackError, match="more than 20,000 paths"):
        read_changed_files(many, tmp_path)
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"caf\xe9.json\n")
    with pytest.raises(ReadBackError, match="not UTF-8"):
        read_changed_files(latin, tmp_path)


def _report() -> object:
    return build_report(suites=[], tests=[], servers=[], started_at="2026-01-01T00:00:00Z",
                        finished_at="2026-01-01T00:00:01Z", duration_ms=1.0,
                        judge=JudgeTotals())


def test_the_list_stands_in_for_git_only_when_git_cannot_tell(tmp_path: Path) -> None:
    listed = tmp_path / "changed.json"
    listed.write_text(json.dumps({"source": "the GitHub API's changed-file list of pull "
                                            "request #7", "files": ["cassettes/changed.json"]}))
    env = {"GITHUB_BASE_REF": "main", "GITHUB_WORKSPACE": str(tmp_path)}
    work = tmp_path / "suites"  # the CLI's directory: paths still start at the workspace
    work.mkdir()
    found = evidence_for(None, True, env, work, listed)  # no repository: git cannot tell
    assert found is not None and found.unknown is None and found.distrust
    assert found.changed(tmp_path / "cassettes" / "changed.json")
    assert not found.changed(tmp_path / "cassettes" / "kept.json")
    assert found.source is not None and found.source.startswith(
        "the GitHub API's changed-file list of pull request #7 (1 path(s); git could not tell: ")
    said = mark_changed_evidence(_report(), found).warnings  # type: ignore[arg-type]
    assert said == [f"which cassettes and records changed since origin/main was taken from "
                    f"{found.source}"]
    # without a base ref at all the list is still the comparison
    bare = evidence_for(None, False, {"GITHUB_WORKSPACE": str(tmp_path)}, work, listed)
    assert bare is not None and bare.changed(tmp_path / "cassettes" / "changed.json")
    # a refused list is an error even where git could have told
    listed.write_text("/abs.json\n")
    with pytest.raises(ReadBackError, match="absolute"):
        evidence_for(None, True, env, work, listed)


def test_git_is_preferred_when_it_can_tell(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                       cwd=tmp_path, check=True, capture_output=True)

    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text("{}")
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "base")
    (tmp_path / "b.json").write_text('{"x": 1}')  # changed in the working tree, not listed
    listed = tmp_path.parent / f"{tmp_path.name}-list.txt"
    listed.write_text("a.json\n")
    found = evidence_for("main", True, {"GITHUB_WORKSPACE": str(tmp_path)}, tmp_path, listed)
    assert found is not None and found.source is None  # git's answer
    assert found.changed(tmp_path / "b.json") and not found.changed(tmp_path / "a.json")
