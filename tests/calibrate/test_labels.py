"""Labels files are checked like suites: every mistake at file:line:col with its key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcptest.calibrate.labels import load_labels
from mcptest.errors import SuiteErrors

REPO = Path(__file__).resolve().parents[2]


def errors(path: Path) -> list[str]:
    with pytest.raises(SuiteErrors) as caught:
        load_labels(path)
    return [str(e) for e in caught.value.errors]


def test_the_worked_example_loads() -> None:
    labels = load_labels(REPO / "examples" / "calibration" / "labels.yaml")
    assert len(labels) == 24
    assert sum(1 for label in labels if label.passed(0.7)) == 12


def test_yaml_mistakes_are_positioned(tmp_path: Path) -> None:
    path = tmp_path / "labels.yaml"
    path.write_text("labels:\n"
                    "  - candidate: fine\n"
                    "    human: pass\n"
                    "  - candidate: x\n"
                    "    human: maybe\n"
                    "    lable: typo\n"
                    "  - candidate: y\n"
                    "    human: 1.5\n", encoding="utf-8")
    assert sorted(errors(path)) == [
        f"{path}:5:12: labels[1].human: expected `pass` or `fail` or a number, got a string",
        f"{path}:6:5: labels[1].lable: unknown key `lable`",
        f"{path}:8:12: labels[2].human: a human score must be in [0, 1]",
    ]


def test_yaml_syntax_and_empty_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("labels:\n  - candidate: [unclosed\n", encoding="utf-8")
    [message] = errors(bad)
    assert message.startswith(f"{bad}:") and "invalid YAML" in message
    empty = tmp_path / "empty.yaml"
    empty.write_text("labels: []\n", encoding="utf-8")
    [message] = errors(empty)
    assert message.startswith(f"{empty}:1:9: labels:")


def test_jsonl_mistakes_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"candidate": "a", "human": "fail", "by": "ana"}\n'
                    "\n"
                    '{"candidate": "b", "humn": "pass"}\n', encoding="utf-8")
    assert errors(path) == [
        f"{path}:3:1: labels[1].humn: unknown key `humn` (did you mean `human`?)",
    ]
    path.write_text('{"candidate": "a", "human": "fail"}\n{"candidate": \n', encoding="utf-8")
    [message] = errors(path)
    assert message.startswith(f"{path}:2:") and "invalid JSON" in message


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    [message] = errors(tmp_path / "nope.yaml")
    assert "cannot read labels file" in message


def test_a_label_id_twice_is_refused_at_the_second(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"id": "a", "candidate": "x", "human": "pass"}\n'
                    '{"id": "b", "candidate": "y", "human": "fail"}\n'
                    '{"id": "a", "candidate": "z", "human": "fail"}\n', encoding="utf-8")
    assert errors(path) == [
        f"{path}:3:1: labels[2].id: the same id as labels[0]; label ids are unique"]


@pytest.mark.parametrize(("line", "expected"), [
    ('{"candidate": ' + "[" * 5000 + "]" * 5000 + ', "human": "pass"}',
     ":2:78: nesting is too deep (more than 64 levels"),
    ('{"candidate": "x", "human": NaN}', ":2:29: NaN and Infinity are not JSON numbers"),
])
def test_a_hostile_jsonl_line_is_refused_before_it_is_parsed(tmp_path: Path, line: str,
                                                             expected: str) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"candidate": "a", "human": "pass"}\n' + line + "\n", encoding="utf-8")
    [message] = errors(path)
    assert message.startswith(f"{path}{expected}")


def test_a_fifo_is_refused_without_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "labels.jsonl"
    os.mkfifo(fifo)
    [message] = errors(fifo)
    assert message == (f"{fifo}:1:1: cannot read labels file: not a regular file (a device, "
                       "FIFO or socket); give a labels file")
