"""The one table of report formats (`reporters/__init__.py` `FORMATS`, docs/architecture.md): the
CLI's `--reporter` choices and the Action's inputs and file names derive from it, and a new
format needs its module and one entry."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sample import sample_report

import mcptest
from mcptest.action.inputs import KNOWN_REPORTERS
from mcptest.action.main import EXTENSIONS
from mcptest.reporters import FORMATS, REPORTERS

SRC = Path(mcptest.__file__).parent
ROOT = SRC.parents[1]


def test_each_format_is_one_entry_and_the_action_lists_derive_from_it() -> None:
    names = [f.name for f in FORMATS]
    assert len(set(names)) == len(names) and list(REPORTERS) == names
    assert len({f.extension for f in FORMATS}) == len(FORMATS)  # one file each
    assert tuple(f.name for f in FORMATS if f.action) == KNOWN_REPORTERS
    assert {f.name: f.extension for f in FORMATS} == EXTENSIONS


def test_the_docs_and_action_yml_name_every_format() -> None:
    docs = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    assert not [f.name for f in FORMATS if f"| `{f.name}` |" not in docs]
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    said = action["inputs"]["reporters"]["description"]
    extra = [f.name for f in FORMATS if f.action and f.name not in ("json", "sarif")]
    assert not [n for n in extra if n not in said], said


CSV_REPORTER = '''"""`--reporter csv`: one line per test (a format added by a test)."""

from mcptest.report.models import Report
from mcptest.reporters import DEFAULTS, RenderOptions


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    return "".join(f"{t.id},{t.status}\\n" for t in report.tests)
'''

ENTRY = '    ReportFormat("csv", "mcptest.reporters.csv_rows", "csv"),\n'

CHILD = """\
import io, json, sys
from mcptest.action.inputs import read_inputs
from mcptest.action.main import extra_outputs
from mcptest.cli.main import main

code = main(["report", sys.argv[1], "--reporter", "csv", "--output", sys.argv[2]])
inputs = read_inputs({"INPUT_REPORTERS": "csv, junit", "INPUT_SUITES": "s.yml"})
print(json.dumps({"code": code, "extra": extra_outputs(inputs, io.StringIO())}))
"""


@pytest.mark.slow  # copies the package and runs a Python process on the copy
def test_a_new_format_needs_its_module_and_one_table_entry(tmp_path: Path) -> None:
    """Add `csv` to a copy of the package: its module and one entry, nothing else edited.
    `mcptest report --reporter csv` then writes it, and the Action takes `reporters: csv` and
    writes it to `mcptest.csv`."""
    copy = tmp_path / "src" / "mcptest"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "reporters" / "csv_rows.py").write_text(CSV_REPORTER, encoding="utf-8")
    table = copy / "reporters" / "__init__.py"
    text = table.read_text(encoding="utf-8")
    anchor = ")\n\"\"\"The table: one entry per format"
    assert text.count(anchor) == 1
    table.write_text(text.replace(anchor, ENTRY + anchor), encoding="utf-8")
    changed = [p.relative_to(copy).as_posix() for p in sorted(copy.rglob("*.py"))
               if not (SRC / p.relative_to(copy)).is_file()
               or (SRC / p.relative_to(copy)).read_bytes() != p.read_bytes()]
    assert changed == ["reporters/__init__.py", "reporters/csv_rows.py"]
    report = sample_report()
    saved = tmp_path / "run.json"
    saved.write_text(report.model_dump_json(by_alias=True), encoding="utf-8")
    out = tmp_path / "run.csv"
    run = subprocess.run([sys.executable, "-c", CHILD, str(saved), str(out)],
                         capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
                         env={"PYTHONPATH": str(copy.parent), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["code"] == 0
    assert found["extra"] == [["csv", "mcptest-results/mcptest.csv"],
                              ["junit", "mcptest-results/mcptest.xml"]]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == [f"{t.id},{t.status}" for t in report.tests] and lines
