"""The client side as hostile servers drive it: tests/data/hostile_client/ (its README says what
each test attacks) through the CLI and the Action entrypoint, under 10 s of CPU (RLIMIT_CPU)
and 300 MiB of peak RSS, each row ending as the table says, the reports written, no exit 70
(issue 34)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from support.action_env import live_commands, new_runner
from support.measured import Measured, measured

from mcptest.action.commands import command

pytestmark = pytest.mark.slow  # starts servers and subprocesses

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "hostile_client"
ENTRYPOINT = ROOT / "entrypoint.py"
MAX_RSS_MIB = 300
ROW = re.compile(r"^\| `(?P<test>[^`]+)` \| (?P<attack>.+) \| (?P<status>\w+) \| (?P<says>.+) \|$")
FILE_ROW = re.compile(r"^\| `(?P<file>[^`]+)` \| (?P<as>cassette|record) \| (?P<attack>.+) \| "
                      r"(?P<says>.+) \|$")
TAPE = Path("cassettes/committed/tool-replayed-30c0bc19.json")
"""Where the `replayed` row of committed.yml reads its cassette."""
ENV = {**{k: v for k, v in os.environ.items()
          if not k.endswith("_API_KEY") and not k.startswith(("MCPTEST_JUDGE", "GITHUB_"))},
       "MCPTEST_HOSTILE_PYTHON": sys.executable}


def table() -> dict[str, tuple[str, str]]:
    text = (DATA / "README.md").read_text(encoding="utf-8")
    return {m["test"]: (m["status"], m["says"].strip())
            for m in map(ROW.match, text.splitlines()) if m and not FILE_ROW.match(m[0])}


def file_table() -> dict[str, tuple[str, str]]:
    text = (DATA / "README.md").read_text(encoding="utf-8")
    return {m["file"]: (m["as"], m["says"].strip())
            for m in map(FILE_ROW.match, text.splitlines()) if m}


def copied(tmp_path: Path) -> Path:
    """The suite's folder, with the task stand-in where `../../support/` finds it."""
    folder = tmp_path / "tests" / "data" / "hostile_client"
    shutil.copytree(DATA, folder)
    (tmp_path / "tests" / "support").mkdir()
    shutil.copy(ROOT / "tests" / "support" / "task_server.py", tmp_path / "tests" / "support")
    return folder


def within_bounds(r: Measured, what: str) -> None:
    assert r.signal == 0, f"{what}: killed by signal {r.signal} (SIGXCPU: past 10 s of CPU)"
    assert "Traceback" not in r.output, f"{what}: {r.output[-2000:]}"
    assert 0 < r.peak_mib < MAX_RSS_MIB, f"{what}: peak RSS {r.peak_mib:.0f} MiB"
    assert r.code not in (70, 0), f"{what}: exit {r.code}: {r.output[-2000:]}"


def rows_as_documented(report: dict[str, object]) -> None:
    rows = {t["name"]: t for t in report["tests"]}  # type: ignore[attr-defined]
    expected = table()
    assert set(rows) == set(expected)
    for name, (status, says) in expected.items():
        row = rows[name]
        assert row["status"] == status, (name, row["status"], row.get("message"))
        if says != "–":
            assert says in json.dumps(row, ensure_ascii=False), (name, row.get("message"))
    flood = rows["log_flood"]
    assert len(json.dumps(flood)) < 2 << 20  # what a test keeps is bounded in bytes


def nothing_written_outside(folder: Path, before: set[Path]) -> None:
    root = folder.parents[2]
    after = {p for p in root.rglob("*") if p.is_file()}
    assert {p for p in after - before if folder not in p.parents} == set()


def test_every_test_says_what_it_attacks() -> None:
    listed = table()
    suite = (DATA / "suite.yml").read_text(encoding="utf-8")
    assert listed and all(f"name: {name}," in suite for name in listed)
    assert suite.startswith("# attacks: ")


def test_through_the_cli(tmp_path: Path) -> None:
    folder = copied(tmp_path)
    before = {p for p in tmp_path.rglob("*") if p.is_file()}
    r = measured([sys.executable, "-m", "mcptest", "run", "suite.yml", "--reporter", "json",
                  "--output", "report.json"], cwd=folder, env=ENV)
    within_bounds(r, "cli")
    assert r.code == 1
    rows_as_documented(json.loads((folder / "report.json").read_text()))
    nothing_written_outside(folder, before)


def test_through_the_action_entrypoint(tmp_path: Path) -> None:
    runner = new_runner(tmp_path)
    folder = copied(runner.workspace)
    runner.inputs(suites="suite.yml", comment="false",
                  working_directory="tests/data/hostile_client")
    runner.env["MCPTEST_HOSTILE_PYTHON"] = sys.executable
    r = measured([sys.executable, str(ENTRYPOINT)], cwd=runner.workspace, env=runner.env)
    within_bounds(r, "action")
    outputs = runner.outputs
    assert outputs["exit-code"] == "1", r.output[-2000:]
    report = json.loads((runner.workspace / outputs["report-json"]).read_text())
    rows_as_documented(report)
    assert "\u202e" not in r.stdout and "\u202e" not in runner.summary
    assert all(line.startswith(("::group::", "::endgroup::", "::error ", "::warning ",
                                "::notice ")) for line in live_commands(r.stdout))
    assert folder.is_dir()


def test_annotations_show_bidi_overrides_as_escapes() -> None:
    line = command("error", "safe \u202etxt.exe\n::error::owned", title="t \u2066x")
    assert "\u202e" not in line and "\u2066" not in line
    assert line == "::error title=t \\u2066x::safe \\u202etxt.exe%0A::error::owned"


def test_every_committed_file_says_what_it_attacks() -> None:
    listed = file_table()
    present = {p.name for p in DATA.iterdir() if p.name.startswith(("cassette_", "record_"))}
    assert set(listed) == present


def _chained(path: Path) -> None:
    turns = [{"kind": "chat", "model": "m", "params": {}, "replies": [{"content": "x"}],
              "messages": [{"role": "user", "content": "x" * 100}],
              **({"after": i - 1} if i else {})} for i in range(20_001)]
    path.write_text(json.dumps({"mcptest_cassette": 1, "test": "t", "definition": "d",
                                "requests": turns}))


def _shared_tools(path: Path) -> None:
    tools = [{"type": "function", "function": {"name": f"t{i}", "description": "d" * 250}}
             for i in range(4_000)]
    requests = [{"kind": "chat", "model": "m", "params": {}, "tools": "big",
                 "replies": [{"content": "x"}], "messages": [{"role": "user", "content": str(i)}]}
                for i in range(4_000)]
    path.write_text(json.dumps({"mcptest_cassette": 1, "test": "t", "definition": "d",
                                "tools": {"big": tools}, "requests": requests}))


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _warnings(path: Path) -> None:
    doc = json.loads((DATA / "record_four_tiers.json").read_text())
    doc["cascade"]["tiers"] = doc["cascade"]["tiers"][:1] + doc["cascade"]["tiers"][-1:]
    doc["cascade"]["tiers"][1]["tier"] = 2
    doc["cascade"]["tiers"][0]["models"] = ["small"]
    doc["warnings"] = ["w" * 60] * 100_000
    path.write_text(json.dumps(doc))


def _committed(name: str) -> object:
    return lambda path: shutil.copy(DATA / name, path)


_FILES = file_table()
PAIRS = [  # (cassette, its words, record, its words)
    ("cassette_tokens_many.json", "record_nan.json"),
    ("cassette_content_object.json", "record_threshold_negative.json"),
    ("cassette_negative_tokens.json", "record_guarantee_750.json"),
    ("cassette_deep_arguments.json", "record_four_tiers.json"),
]
MADE = [
    ("chained", _chained, "conversations, spelt out, pass 64 MiB", "fifo", _fifo,
     "not a regular file"),
    ("shared_tools", _shared_tools, "is stale", "zero", _zero, "not a regular file"),
]


def _place(folder: Path, cassette: object, record: object) -> None:
    (folder / TAPE).parent.mkdir(parents=True, exist_ok=True)
    cassette(folder / TAPE)  # type: ignore[operator]
    record(folder / "record.json")  # type: ignore[operator]


def _rows_say(report: dict[str, object], cassette_says: str, record_says: str) -> None:
    rows = {t["name"]: t for t in report["tests"]}  # type: ignore[attr-defined]
    replayed = rows["replayed"]
    assert replayed["status"] == "failed" and str(TAPE) in replayed["message"]
    assert cassette_says in replayed["message"], replayed["message"]
    note = rows["cascaded"]["assertions"][0]["calibration"]
    assert note["state"] == "unreadable" and record_says in note["reason"], note
    assert note["reason"].startswith("unreadable: record.json: "), note  # names the file


CASES = [(c, _committed(c), _FILES[c][1], r, _committed(r), _FILES[r][1]) for c, r in PAIRS] \
    + MADE


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_committed_files_through_the_cli(case: tuple, tmp_path: Path) -> None:  # type: ignore[type-arg]
    _, make_tape, tape_says, _, make_record, record_says = case
    folder = copied(tmp_path)
    _place(folder, make_tape, make_record)
    r = measured([sys.executable, "-m", "mcptest", "run", "committed.yml", "--models", "replay",
                  "--no-cache", "--reporter", "json", "--output", "report.json"], cwd=folder,
                 env=ENV)
    within_bounds(r, case[0])
    _rows_say(json.loads((folder / "report.json").read_text()), tape_says, record_says)


def test_committed_files_through_the_action_entrypoint(tmp_path: Path) -> None:
    runner = new_runner(tmp_path)
    folder = copied(runner.workspace)
    _place(folder, _committed("cassette_deep_arguments.json"), _warnings)
    runner.inputs(suites="committed.yml", comment="false", models="replay",
                  working_directory="tests/data/hostile_client")
    runner.env["MCPTEST_HOSTILE_PYTHON"] = sys.executable
    r = measured([sys.executable, str(ENTRYPOINT)], cwd=runner.workspace, env=runner.env)
    within_bounds(r, "action")
    report = json.loads((runner.workspace / runner.outputs["report-json"]).read_text())
    rows = {t["name"]: t for t in report["tests"]}
    assert "nesting is too deep" in rows["replayed"]["message"]
    assert len(report["warnings"]) <= 11 and len(runner.summary) < 100_000


def test_a_recording_never_writes_through_committed_links(tmp_path: Path) -> None:
    """`.NAME.tmp` beside the cassette links outside the suite's folder and the cassette itself
    links to /dev/zero: the recording replaces the link and writes nothing outside."""
    from support.judge_server import JudgeServer, Verdict

    folder = copied(tmp_path / "repo")
    outside = tmp_path / "outside"
    outside.mkdir()
    (folder / TAPE).parent.mkdir(parents=True)
    (folder / TAPE).symlink_to("/dev/zero")
    (folder / TAPE).with_name(f".{TAPE.name}.tmp").symlink_to(outside / "owned.json")
    with JudgeServer() as js:
        js.script("judge-x", Verdict(score=0.9))
        r = measured([sys.executable, "-m", "mcptest", "run", "committed.yml", "--models",
                      "record", "--no-cache", "--filter", "replayed",
                      "--reporter", "json", "--output", "report.json"], cwd=folder,
                     env={**ENV, **js.gateway_env()})
    assert r.signal == 0 and "Traceback" not in r.output and r.code == 0, r.output[-2000:]
    assert 0 < r.peak_mib < MAX_RSS_MIB
    tape = folder / TAPE
    assert tape.is_file() and not tape.is_symlink()
    assert json.loads(tape.read_text())["mcptest_cassette"] == 1
    assert list(outside.iterdir()) == []


def test_sampling_by_a_model_keeps_under_the_cap_whatever_maxtokens_says(
        tmp_path: Path) -> None:
    """sampling.yml: maxTokens −10⁹ and 2⁴⁰ are refused before anything is sent; 10⁶ is sent
    as the suite's max_tokens (256), so the reserved worst case fits the cap it is held to."""
    from support.judge_server import Fault, JudgeServer

    folder = copied(tmp_path)
    with JudgeServer() as js:
        js.script("sampler-m", Fault.text("a sample"))
        r = measured([sys.executable, "-m", "mcptest", "run", "sampling.yml", "--no-cache",
                      "--max-cost", "1.0", "--reporter", "json", "--output", "report.json"],
                     cwd=folder, env={**ENV, **js.gateway_env()})
        sent = js.requests("sampler-m")
    within_bounds(r, "sampling")
    rows = {t["name"]: t for t in json.loads((folder / "report.json").read_text())["tests"]}
    for name, asked in (("sample_negative_tokens", "-1000000000"),
                        ("sample_huge_tokens", "1099511627776")):
        assert rows[name]["status"] == "failed"
        assert f"the server asked for maxTokens {asked}" in rows[name]["message"]
    assert rows["sample_many_tokens"]["status"] == "passed", rows["sample_many_tokens"]
    assert len(sent) == 1 and sent[0]["max_tokens"] == 256
    report = json.loads((folder / "report.json").read_text())
    assert report["summary"]["cost_usd"] <= 1.0
