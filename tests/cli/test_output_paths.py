"""`--output` paths are checked before any server starts or judge is paid (docs/reports.md).

Each bad path is named on its own line and the run exits 2; the loopback judge server counts
zero requests and the stdio server's start marker never appears. Good reports are written
atomically, and one failing write does not stop the others.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.judge_server import JudgeServer, Verdict

from mcptest.cli.output import write_reports
from mcptest.errors import OutputNotWritten
from mcptest.report.io import read_report

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"

MARKER_SERVER = """\
import pathlib, runpy, sys

pathlib.Path(sys.argv[1]).write_text("started")
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _suite(tmp_path: Path) -> tuple[Path, Path]:
    """A suite whose server leaves a marker file when it starts, with one judged assertion."""
    marker = tmp_path / "server-started"
    wrapper = tmp_path / "wrap.py"
    wrapper.write_text(MARKER_SERVER)
    path = tmp_path / "suite.yml"
    path.write_text(f"""
judge: {{model: judge-a}}
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(wrapper))}, {json.dumps(str(marker))}, {json.dumps(str(SERVER))}]
tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{exact: "Hello, Ada!"}}
      - target: result.content[0].text
        matcher: {{llm-judge: {{rubric: "A greeting."}}}}
""", encoding="utf-8")
    return path, marker


def _run(*args: str | Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcptest", "run", *map(str, args), "--no-cache"],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_bad_outputs_stop_the_run_before_servers_and_judges(tmp_path: Path) -> None:
    suite, marker = _suite(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "target.json").write_text("keep me")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    with JudgeServer() as js:
        js.script("judge-a", Verdict(0.9))
        env = {**os.environ, **js.gateway_env()}
        r = _run(suite,
                 "--reporter", "json", "--output", "adir",
                 "--reporter", "junit", "--output", "afile/junit.xml",
                 "--reporter", "sarif", "--output", "dangling",
                 "--reporter", "tap", "--output", "link.json",
                 "--reporter", "html", "--output", "suite.yml",
                 "--reporter", "gitlab", "--output", "out/same.json",
                 "--reporter", "ndjson", "--output", "out/same.json",
                 "--reporter", "md", "--output", "/dev/null",
                 env=env, cwd=tmp_path)
        assert js.count() == 0
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        "error: --output adir (json report): is a directory; give a file path",
        "error: --output afile/junit.xml (junit report): cannot be created: afile is a file, "
        "not a folder",
        "error: --output dangling (sarif report): is a symbolic link; give the real path "
        "(links are never written through)",
        "error: --output link.json (tap report): is a symbolic link; give the real path "
        "(links are never written through)",
        "error: --output suite.yml (html report): is a suite file being run; "
        "reports never overwrite their inputs",
        "error: --output out/same.json (ndjson report): is also the gitlab report's output; "
        "give each report its own file",
        "error: --output /dev/null (md report): is not a regular file (omit --output to write "
        "to stdout)",
    ]
    assert not marker.exists()
    assert (tmp_path / "target.json").read_text() == "keep me"
    assert "judge-a" in suite.read_text()  # the suite file is untouched


def test_good_outputs_run_pay_the_judge_and_replace_old_reports(tmp_path: Path) -> None:
    suite, marker = _suite(tmp_path)
    old = tmp_path / "out" / "run.json"
    old.parent.mkdir()
    old.write_text("an old report")
    with JudgeServer() as js:
        js.script("judge-a", Verdict(0.9))
        env = {**os.environ, **js.gateway_env()}
        r = _run(suite, "--reporter", "json", "--output", "out/run.json",
                 "--reporter", "junit", "--output", "new/dir/junit.xml", env=env, cwd=tmp_path)
        assert js.count() == 1
    assert r.returncode == 0, r.stderr
    assert marker.exists()
    assert read_report(old).summary.exit_code == 0
    assert (tmp_path / "new" / "dir" / "junit.xml").read_text().startswith("<?xml")
    assert sorted(p.name for p in old.parent.iterdir()) == ["run.json"]  # no temp file left


def test_one_failing_write_does_not_stop_the_others(tmp_path: Path) -> None:
    suite, _ = _suite(tmp_path)
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("_API_KEY") and not k.startswith("MCPTEST_JUDGE")}
    r = _run(suite, "--reporter", "json", "--output", "run.json", env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    report = read_report(tmp_path / "run.json")
    (tmp_path / "blocker").write_text("a file where a folder should be")
    first, last = tmp_path / "a.xml", tmp_path / "b.tap"
    with pytest.raises(OutputNotWritten) as caught:
        write_reports(report, [("junit", first), ("json", tmp_path / "blocker" / "r.json"),
                               ("tap", last)])
    assert str(caught.value).startswith(
        f"cannot write the json report to {tmp_path / 'blocker' / 'r.json'}: ")
    assert first.read_text().startswith("<?xml")
    assert last.read_text().startswith("TAP version")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root may write anywhere: no folder is unwritable for it")
def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    from mcptest.cli.output_paths import check_outputs
    from mcptest.errors import UsageError

    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(UsageError) as caught:
            check_outputs([("json", locked / "sub" / "run.json")])
    finally:
        locked.chmod(0o700)
    assert str(caught.value) == (f"--output {locked / 'sub' / 'run.json'} (json report): cannot "
                                 f"be written: no permission to write in {locked}")
