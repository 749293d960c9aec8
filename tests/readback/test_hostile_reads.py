"""Every hostile file of tests/data/hostile_reads/ (its README says what each attacks), and those
too large to commit, written here: through the CLI and through the Action entrypoint, each ends
in exit 2 or its documented refusal, under 10 s of CPU (RLIMIT_CPU) and 300 MiB of peak RSS
(wait4), with no traceback; the Action's own reports are still written (issue 25)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.action_env import TOKEN, Runner, live_commands, new_runner
from support.cli_run import HEAD
from support.github_events import pull_request_event
from support.github_server import GitHubServer
from support.hostile_inputs import big_report_zip, lying_zip, rows_report, values_report, zipped
from support.measured import Measured, measured

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "hostile_reads"
ENTRYPOINT = ROOT / "entrypoint.py"
MAX_RSS_MIB = 300
ROW = re.compile(r"^\| `(?P<file>[^`]+)` \| (?P<kind>[^|]+) \| (?P<attack>[^|]+) \| "
                 r"`(?P<cli>[^`]+)` \| (?P<exit>\d+) \| (?P<says>.+) \|$")
SUITE = HEAD + """tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {name: Ada}
"""
KEYLESS = {k: v for k, v in os.environ.items()
           if not k.endswith("_API_KEY") and not k.startswith(("MCPTEST_JUDGE", "GITHUB_"))}


@dataclass(frozen=True)
class Case:
    file: str
    kind: str
    cli: str
    exit: int
    says: str


def cases() -> list[Case]:
    text = (DATA / "README.md").read_text(encoding="utf-8")
    return [Case(m["file"], m["kind"].strip(), m["cli"], int(m["exit"]), m["says"].strip())
            for m in map(ROW.match, text.splitlines()) if m]


CASES = cases()
REPORTS = sorted({c.file for c in CASES if c.file.endswith(".json") and c.kind != "–"})
REFUSED = {c.file for c in CASES if c.file.endswith(".json") and c.exit == 2}


def within_bounds(r: Measured, what: str) -> None:
    assert r.signal == 0, f"{what}: killed by signal {r.signal} (SIGXCPU: past 10 s of CPU)"
    assert "Traceback" not in r.output, f"{what}: {r.output[-2000:]}"
    assert 0 < r.peak_mib < MAX_RSS_MIB, f"{what}: peak RSS {r.peak_mib:.0f} MiB"


def cli(*args: str | Path, cwd: Path = DATA) -> Measured:
    return measured([sys.executable, "-m", "mcptest", *map(str, args)], cwd=cwd, env=KEYLESS)


def action(runner: Runner) -> Measured:
    return measured([sys.executable, str(ENTRYPOINT)], cwd=runner.workspace, env=runner.env)


def suite_runner(root: Path, **inputs: str) -> Runner:
    root.mkdir(parents=True, exist_ok=True)
    runner = new_runner(root)
    (runner.workspace / "mcptest.yml").write_text(SUITE, encoding="utf-8")
    runner.inputs(**{"suites": "mcptest.yml", "comment": "false", **inputs})
    return runner


def ran_and_reported(r: Measured, runner: Runner, what: str) -> None:
    """The suites ran (the baseline refused or not) and the Action's reports are written."""
    within_bounds(r, what)
    assert r.code == 0, f"{what}: {r.output[-2000:]}"
    outputs = runner.outputs
    assert outputs["report-json"] == "mcptest-results/mcptest.json", what
    assert (runner.workspace / outputs["report-json"]).is_file()
    assert "greets Ada" in runner.summary
    assert all(line.startswith(("::group::mcptest", "::endgroup::")) for line in
               live_commands(r.stdout)), f"{what}: {live_commands(r.stdout)}"
    for text in (r.stdout, runner.summary):
        assert "\x1b" not in text and "<img" not in text and "@octocat" not in text, what


def test_every_file_says_what_it_attacks() -> None:
    listed = {c.file for c in CASES}
    present = {p.name for p in DATA.iterdir()} - {"README.md"}
    assert listed == present
    assert {c.kind for c in CASES} >= {"1", "2", "3", "4"}
    for name in present - {"README.md"}:
        if name.endswith(".yml"):
            assert (DATA / name).read_text().startswith("# attacks: "), name


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}-{c.cli.split()[0]}" for c in CASES])
def test_through_the_cli(case: Case) -> None:
    r = cli(*shlex.split(case.cli.replace("{file}", case.file)))
    within_bounds(r, case.file)
    assert r.code == case.exit, r.output[-2000:]
    assert case.says in r.output, r.output[-2000:]
    assert "\x1b" not in r.output
    assert not any(line.startswith("::") for line in r.output.splitlines())


@pytest.mark.parametrize("name", REPORTS)
def test_as_the_actions_baseline_file(name: str, tmp_path: Path) -> None:
    """`baseline: PATH` naming a hostile file: no baseline (said in one line), the suites run."""
    runner = suite_runner(tmp_path, baseline="base.json")
    shutil.copy(DATA / name, runner.workspace / "base.json")
    r = action(runner)
    ran_and_reported(r, runner, name)
    said = "no baseline: base.json refused (" if name in REFUSED else "baseline: base.json"
    assert said in r.stdout


@pytest.mark.parametrize("name", [c.file for c in CASES if c.file.startswith("labels_")])
def test_labels_through_the_entrypoint(name: str) -> None:
    case = next(c for c in CASES if c.file == name)
    r = measured([sys.executable, str(ENTRYPOINT), *shlex.split(case.cli.replace(
        "{file}", name))], cwd=DATA, env=KEYLESS)
    within_bounds(r, name)
    assert (r.code, case.says in r.output) == (2, True), r.output


@pytest.mark.parametrize("suite", ["cases_deep_cell.yml", "cases_deep_jsonl.yml"])
def test_case_tables_through_the_action(suite: str, tmp_path: Path) -> None:
    runner = new_runner(tmp_path)
    table = "cases_deep_cell.csv" if "cell" in suite else "cases_deep.jsonl"
    for name in (suite, table):
        shutil.copy(DATA / name, runner.workspace / name)
    runner.inputs(suites=suite, comment="false")
    r = action(runner)
    within_bounds(r, suite)
    assert r.code == 2 and f"{table}:" in r.stdout and "nesting is too deep" in r.stdout
    assert runner.outputs["exit-code"] == "2" and "exit 2" in runner.summary


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        r = cli("report", path, cwd=tmp_path)
        within_bounds(r, str(path))
        assert r.code == 2 and "not a regular file (a device, FIFO or socket)" in r.stderr
    labels = tmp_path / "labels.jsonl"
    os.mkfifo(labels)
    r = cli("calibrate", ROOT / "examples" / "calibration" / "mcptest.yml", "--labels", labels,
            cwd=tmp_path)
    within_bounds(r, "a FIFO of labels")
    assert r.code == 2 and "not a regular file" in r.stderr
    for hostile in (fifo, Path("/dev/zero")):
        runner = suite_runner(tmp_path / hostile.name.replace(".", "_"), baseline=str(hostile))
        r = action(runner)
        ran_and_reported(r, runner, str(hostile))
        assert f"no baseline: {hostile} refused (not a regular file" in r.stdout


@pytest.mark.parametrize(("name", "make", "says"), [
    ("million_rows.json", lambda p: rows_report(p, 1_000_000), "larger than 64 MiB"),
    ("rows_over.json", lambda p: rows_report(p, 100_001), "more than 100,000 rows"),
    ("values.json", lambda p: values_report(p, 4_200_000), "more than 4,000,000 values"),
])
def test_reports_past_the_bounds(name: str, make: object, says: str, tmp_path: Path) -> None:
    path = make(tmp_path / name)  # type: ignore[operator]
    r = cli("diff", path, path, cwd=tmp_path)
    within_bounds(r, name)
    assert r.code == 2 and says in r.stderr, r.stderr
    runner = suite_runner(tmp_path / "action", baseline=str(path))
    r = action(runner)
    ran_and_reported(r, runner, name)
    assert says in r.stdout


def test_shards_are_bounded_as_one_run(tmp_path: Path) -> None:
    shards = [values_report(tmp_path / f"shard{i}.json", 2_100_000, shard=(i, 2))
              for i in (1, 2)]
    for shard in shards:  # each alone is readable
        assert cli("report", shard, "--format", "json", cwd=tmp_path).code == 0
    r = cli("merge", *shards, cwd=tmp_path)
    within_bounds(r, "merge")
    assert r.code == 2 and "more than 4,000,000 values" in r.stderr, r.stderr
    (tmp_path / "action").mkdir()
    runner = new_runner(tmp_path / "action")
    for shard in shards:
        shutil.copy(shard, runner.workspace / shard.name)
    runner.inputs(mode="merge", shard_reports="shard*.json", comment="false")
    r = action(runner)
    within_bounds(r, "mode: merge")
    assert r.code == 2 and "more than 4,000,000 values" in runner.summary


def test_artifacts_of_every_kind_are_refused_and_the_run_goes_on(tmp_path: Path) -> None:
    """One `baseline: auto` run: each committed report, a valid 240 MB report zipped to about
    13 MB and a zip whose directory lies about its size, each stored by a push run on its own
    commit of the base branch; none is used, each refusal is one line that quotes nothing."""
    artifacts = [(name, zipped(DATA / name)) for name in sorted(REFUSED)]
    artifacts += [("a 240 MB report", big_report_zip(240)),
                  ("a zip declaring 1 KiB", lying_zip(200))]
    history = [(f"{k:02d}" * 20, f"2026-11-{20 - k // 2:02d}T10:00:00Z")
               for k in range(len(artifacts))]
    runner = suite_runner(tmp_path, baseline="auto", comment="true")
    Path(runner.env["GITHUB_EVENT_PATH"]).write_text(json.dumps(pull_request_event(7)))
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = history, history[0][0]
        for (_, data), (sha, date) in zip(artifacts, history, strict=True):
            gh.baseline.add("mcptest-report", sha, data, False, date)
        runner.env["GITHUB_API_URL"] = gh.url
        r = action(runner)
        body = gh.comments(7)[0]["body"]
    ran_and_reported(r, runner, "baseline: auto")
    note = next(line for line in r.stdout.splitlines() if line.startswith("mcptest: no baseline"))
    refusals = re.split(r"; (?=[0-9a-f]{7}: )", note.split("; refused: ", 1)[1])
    assert [x[:7] for x in refusals] == [sha[:7] for sha, _ in history], note
    assert "its report is larger than 64 MiB once decompressed" in refusals[-2]
    assert "not a readable zip (BadZipFile)" in refusals[-1]
    for text in (note, body):
        assert "owned" not in text and "octocat" not in text and "<img" not in text
    assert "<details" not in body.split("\n", 2)[1]  # the note is one inert line
