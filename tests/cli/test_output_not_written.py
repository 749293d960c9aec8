"""A report or output that cannot be written is exit 74, never 70 (docs/reports.md, "Output
files"; docs/decisions.md, "Exit codes"): a full disk, and a reader of stdout that is gone.

Every `--output` path is checked before anything runs; what can still fail at the end is the
disk. The processes here get a file-size limit (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored, so a
write past it fails with `EFBIG` as a full disk fails with `ENOSPC`): real writes that fail, to
a file and to stdout redirected to a file, while the small reports fit.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.cli_run import greet_suite

from mcptest.report.io import read_report

pytestmark = [pytest.mark.slow,  # starts a real server and subprocesses
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")]

NO_PYC = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
LIMIT = 3000
"""Bytes a file may hold: the JUnit and SARIF reports of one test fit, its JSON report does not."""


def _suite(tmp_path: Path) -> Path:
    """One passing greet test on the example server (the test process's shared one)."""
    name = greet_suite(tmp_path, matcher='{exact: "Hello, Ada!"}')
    return (tmp_path / name).rename(tmp_path / "suite.yml")


def _limited(limit: int = LIMIT) -> None:
    """The child's file-size limit. Its Python must write no bytecode (`NO_PYC`): CPython 3.11
    writes a `.pyc` with one `write()` and renames it in place without checking the count, so
    a limit cuts it short and leaves a truncated file that later imports fail on ("marshal
    data too short": seen in CI)."""
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _mcptest(*args: str | Path, cwd: Path, stdout: Path | None = None,
             limited: bool = True) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "mcptest", *map(str, args)]
    with open(stdout or Path("/dev/null"), "w", encoding="utf-8") as out:
        return subprocess.run(argv, cwd=cwd, stdout=out, stderr=subprocess.PIPE, text=True,
                              preexec_fn=_limited if limited else None, timeout=120, env=NO_PYC)


def test_a_report_the_disk_refuses_is_exit_74_and_the_others_are_written(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    stdout = tmp_path / "stdout.json"
    r = _mcptest("run", suite, "--no-cache", "--reporter", "junit", "--output", "r.xml",
                 "--reporter", "json", "--reporter", "sarif", "--output", "s.sarif",
                 cwd=tmp_path, stdout=stdout)
    assert r.returncode == 74, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[-1] == (
        "error: cannot write the json report to stdout: File too large")
    assert "[1/1] passed   greets politely" in r.stderr  # the run itself passed
    (junit,) = ET.parse(tmp_path / "r.xml").getroot()
    assert junit.get("tests") == "1" and junit.get("failures") == "0"
    sarif = json.loads((tmp_path / "s.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert stdout.stat().st_size == LIMIT  # stdout cannot be written atomically: cut at the limit
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "r.xml", "s.sarif", "stdout.json", "suite.yml"]


def test_a_report_file_the_disk_refuses_leaves_no_half_file(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    (tmp_path / "r.json").write_text("the previous report", encoding="utf-8")
    r = _mcptest("run", suite, "--no-cache", "--reporter", "json", "--output", "r.json",
                 cwd=tmp_path)
    assert r.returncode == 74, r.stderr
    assert r.stderr.splitlines()[-1] == (
        "error: cannot write the json report to r.json: File too large")
    # the old report stays whole, and no temporary file is left beside it
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == "the previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "suite.yml"]


def test_view_and_surface_say_the_same(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    saved = tmp_path / "saved.json"
    made = _mcptest("run", suite, "--no-cache", "--reporter", "json", "--output", saved,
                    cwd=tmp_path, limited=False)
    assert made.returncode == 0, made.stderr
    assert read_report(saved).summary.counts.passed == 1
    r = _mcptest("view", saved, "--output", "v.html", cwd=tmp_path)
    assert r.returncode == 74, r.stderr
    assert r.stderr.splitlines() == ["error: cannot write the HTML viewer to v.html: "
                                     "File too large"]
    assert not (tmp_path / "v.html").exists()
    # a snapshot's --output is checked before its servers start: a bad one is exit 2 at once
    (tmp_path / "adir").mkdir()
    r = _mcptest("surface", "snapshot", suite, "--output", "adir", cwd=tmp_path, limited=False)
    assert r.returncode == 2, r.stderr
    assert r.stderr.splitlines() == [
        "error: --output adir (snapshot report): is a directory; give a file path"]


def _closed_pipe() -> int:
    """The write end of a pipe whose reader is gone: every write to it fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.mark.parametrize("argv", [["validate", "SUITE", "SUITE"], ["schema"]],
                         ids=["validate", "schema"])
def test_a_reader_that_is_gone_is_exit_74_without_a_word(tmp_path: Path, argv: list[str]
                                                        ) -> None:
    suite = _suite(tmp_path)
    write = _closed_pipe()
    try:
        r = subprocess.run([sys.executable, "-m", "mcptest",
                            *[str(suite) if a == "SUITE" else a for a in argv]],
                           stdout=write, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert (r.returncode, r.stderr) == (74, "")


def test_stdout_on_a_full_disk_is_exit_74_and_said(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    with open("/dev/full", "w", encoding="utf-8") as full:
        r = subprocess.run([sys.executable, "-m", "mcptest", "validate", str(suite)],
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 74, r.stderr
    assert r.stderr == "error: cannot write: No space left on device\n"


def test_a_run_with_stdout_closed_writes_its_files(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    r = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "mcptest",
                        "run", str(suite), "--no-cache", "--reporter", "pretty",
                        "--reporter", "json", "--output", "r.json"],
                       cwd=tmp_path, stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert read_report(tmp_path / "r.json").summary.counts.passed == 1


def test_a_bug_of_ours_outranks_a_report_the_disk_refuses(tmp_path: Path) -> None:
    """70 > 74 (docs/decisions.md, "Exit codes"): the failed write is said, then the bug."""
    suite = _suite(tmp_path)
    r = subprocess.run([sys.executable, "-m", "mcptest", "run", str(suite), "--no-cache",
                        "--reporter", "json", "--output", "r.json"], cwd=tmp_path,
                       stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                       preexec_fn=_limited, timeout=120,
                       env={**NO_PYC, "MCPTEST_INJECT_FAULT": "1"})
    assert r.returncode == 70, r.stderr
    lines = r.stderr.splitlines()
    assert "error: cannot write the json report to r.json: File too large" in lines
    assert lines[-1].startswith("internal error: InjectedFault: injected fault after")
    assert lines[-1].endswith("(set MCPTEST_DEBUG=1 for a traceback)")  # not "were written"


def test_a_stop_outranks_a_report_the_disk_refuses(tmp_path: Path) -> None:
    """130 > 74: a SIGTERM while the command imports, then a report the disk refuses."""
    suite = _suite(tmp_path)
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "mcptest", "run",
                             str(suite), "--no-cache", "-v", "--reporter", "junit", "--output",
                             "r.xml", "--reporter", "json", "--output", "r.json"],
                            cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, preexec_fn=lambda: _limited(1500),  # a skipped row's
                            env=NO_PYC)  # JUnit fits
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.endswith("| mcptest.api.options\n"):  # main() runs: the latch holds
            break
    proc.send_signal(signal.SIGTERM)
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, rest[-2000:]
    assert "error: cannot write the json report to r.json: File too large" in rest
    (junit,) = ET.parse(tmp_path / "r.xml").getroot()
    assert junit.get("skipped") == "1"  # not run: interrupted


@pytest.mark.parametrize("stderr", ["gone", "closed"])
def test_a_run_whose_log_cannot_be_written_goes_on(tmp_path: Path, stderr: str) -> None:
    """stderr's reader gone (`2>&1 | head -1`) or stderr closed (`2>&-`): the run, its report
    and its exit code are its own; its log is dropped (docs/decisions.md, "Exit codes")."""
    suite = _suite(tmp_path)
    argv = [sys.executable, "-m", "mcptest", "run", str(suite), "--no-cache", "-v",
            "--reporter", "json", "--output", "r.json"]
    if stderr == "closed":
        r = subprocess.run(["sh", "-c", 'exec "$@" 2>&-', "sh", *argv], cwd=tmp_path,
                           stdout=subprocess.DEVNULL, timeout=120)
    else:
        write = _closed_pipe()
        try:
            r = subprocess.run(argv, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=write,
                               timeout=120)
        finally:
            os.close(write)
    report = read_report(tmp_path / "r.json")
    assert (r.returncode, report.summary.exit_code) == (0, 0)
    assert report.summary.internal_error is None and report.summary.counts.passed == 1


def test_with_stderr_closed_nothing_meant_for_it_lands_in_the_report(tmp_path: Path) -> None:
    """`2>&-`: a deprecation note (`--format`) and a debug traceback went to stdout, into the
    report written there (print(file=None) writes to stdout)."""
    suite = _suite(tmp_path)
    saved = tmp_path / "saved.json"
    made = _mcptest("run", suite, "--no-cache", "--reporter", "json", "--output", saved,
                    cwd=tmp_path, limited=False)
    assert made.returncode == 0, made.stderr
    with open(tmp_path / "out.json", "w", encoding="utf-8") as out:
        r = subprocess.run(["sh", "-c", 'exec "$@" 2>&-', "sh", sys.executable, "-m", "mcptest",
                            "report", str(saved), "--format", "json"], cwd=tmp_path,
                           stdout=out, timeout=120, env=NO_PYC)
    assert r.returncode == 0
    assert read_report(tmp_path / "out.json").summary.counts.passed == 1  # JSON, whole
