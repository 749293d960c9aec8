"""One spelling for output flags: `--reporter NAME --output PATH` on every command that writes,
the old spellings only as deprecated aliases that still work (docs/reports.md, "Output flags")."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from reporters.sample import sample_report

from mcptest.cli.main import COMMANDS, build_parser, main
from mcptest.cli.output_flags import DEPRECATED_ALIASES

# what each command writes; a new command must be placed here (the walk below fails otherwise)
RENDERS = {"run", "eval", "lint", "report", "merge", "diff", "surface diff"}  # --reporter too
WRITES = {"surface snapshot", "init", "calibrate", "label", "schema", "view"}  # --output only
WRITES_NOTHING = {"validate", "surface", "demo-judge"}  # `surface`: its actions write; demo-judge: the command it runs writes
# spellings an output flag has had here or in peers; only DEPRECATED_ALIASES may remain
OTHER_SPELLINGS = {"--format", "--out", "--write", "--fmt", "--reporters", "--output-file",
                   "--out-file", "-o", "-f"}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def _commands() -> dict[str, argparse.ArgumentParser]:
    out = {}
    for name in COMMANDS:
        p = _subparsers(build_parser(name))[name]
        out[name] = p
        for action, sub in _subparsers(p).items():
            out[f"{name} {action}"] = sub
    return out


def _flags(p: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {s: a for a in p._actions for s in a.option_strings}


def test_every_command_is_placed() -> None:
    assert set(_commands()) == RENDERS | WRITES | WRITES_NOTHING


@pytest.mark.parametrize("name", sorted(RENDERS | WRITES))
def test_every_writing_command_spells_its_flags_one_way(name: str) -> None:
    flags = _flags(_commands()[name])
    assert "--output" in flags
    if name in RENDERS:
        assert "--reporter" in flags
    for spelling in OTHER_SPELLINGS & set(flags):
        assert spelling in DEPRECATED_ALIASES, f"{name}: {spelling}"
        action = flags[spelling]
        assert "deprecated alias" in (action.help or ""), f"{name}: {spelling} help"
        new = DEPRECATED_ALIASES[spelling]
        assert action.dest == flags[new].dest, f"{name}: {spelling} is not {new}"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "run.json"
    path.write_text(sample_report().model_dump_json(indent=2), encoding="utf-8")
    return path


def test_format_still_works_and_says_it_is_deprecated(
        saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new, old = tmp_path / "new.md", tmp_path / "old.md"
    assert main(["report", str(saved), "--reporter", "md", "--output", str(new)]) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert main(["report", str(saved), "--format", "md", "--output", str(old)]) == 0
    err = capsys.readouterr().err
    assert "--format is a deprecated alias of --reporter" in err
    assert old.read_text() == new.read_text() and "|" in new.read_text()


@pytest.mark.parametrize("argv", [["merge"], ["diff", "{saved}"]])
def test_merge_and_diff_take_reporter(argv: list[str], saved: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.format(saved=saved) for a in argv]
    main([*args, str(saved), "--reporter", "json"])
    rows = json.loads(capsys.readouterr().out)["tests"]
    assert [t["id"] for t in rows] == [t.id for t in sample_report().tests]


def test_schema_write_path_is_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["schema", "--output", str(a)]) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert main(["schema", "--write", str(b)]) == 0
    assert "--write is a deprecated alias of --output" in capsys.readouterr().err
    assert a.read_text() == b.read_text() and json.loads(a.read_text())["$schema"]


def test_unknown_reporter_is_a_usage_error(saved: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["report", str(saved), "--reporter", "pdf"])
    assert stop.value.code == 2
