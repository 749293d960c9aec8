"""Tables of cases (docs/suites.md#tables-of-cases) through the CLI, on the example server: one row
per case, named and located at the case; bad case files give positioned errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

ADDS = """tools:
  - name: adds
    server: ex
    tool: add
    args: {a: "${a}", b: "${b}"}
    cases: {file: adds.csv}
    expect:
      - target: result.structuredContent.result
        matcher: {exact: "${sum}"}
"""
CSV = "name,a,b,sum\nsmall,1,2,3\nzero,0,0,0\nwrong,5,5,11\n"


def write(tmp_path: Path, body: str, **files: str) -> Path:
    for name, text in files.items():
        (tmp_path / name.replace("_", ".")).write_text(text, encoding="utf-8")
    path = tmp_path / "suite.yml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def run_json(tmp_path: Path, *extra: str) -> tuple[Ran, dict]:
    r = cli("run", "suite.yml", "--reporter", "json", "--output", "out.json", *extra,
                cwd=tmp_path)
    return r, json.loads((tmp_path / "out.json").read_text())


def test_a_csv_table_makes_one_located_row_per_case(tmp_path: Path) -> None:
    write(tmp_path, ADDS, adds_csv=CSV)
    r, report = run_json(tmp_path)
    assert r.returncode == 1, r.stderr
    assert "mcptest: 3 of 3 tests (3 from case tables) from 1 file(s)" in r.stderr
    rows = {t["name"]: t for t in report["tests"]}
    assert list(rows) == ["adds [case=small]", "adds [case=zero]", "adds [case=wrong]"]
    assert rows["adds [case=small]"]["status"] == "passed"
    assert rows["adds [case=small]"]["id"] == "suite.yml::tool::adds[case=small]"
    assert rows["adds [case=small]"]["cell"] == {"case": "small"}
    assert rows["adds [case=zero]"]["location"] == {"file": "adds.csv", "line": 3, "column": 1}
    wrong = rows["adds [case=wrong]"]
    assert wrong["status"] == "failed"
    (a,) = wrong["assertions"]
    assert a["message"] == "expected 11, got 10"  # CSV cells that are JSON numbers are numbers
    assert a["location"]["file"] == "suite.yml" and a["location"]["line"] == 11


def test_inline_jsonl_and_yaml_tables_fill_args_expect_and_text(tmp_path: Path) -> None:
    body = """tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: "${who}"}
    cases: [{who: Ada}, {who: Bob, name: bob}]
    expect:
      - {target: "result.content[0].text", matcher: {exact: "Hello, ${who}!"}}
  - name: greets from jsonl
    server: ex
    tool: greet
    args: {name: "${who}"}
    cases: {file: who.jsonl}
    expect:
      - {target: "result.content[0].text", matcher: {contains: "${who}"}}
  - name: adds from yaml
    server: ex
    tool: add
    args: {a: "${a}", b: 1}
    cases: {file: adds.yaml}
    expect:
      - {target: result.structuredContent.result, matcher: {schema: {minimum: "${low}"}}}
"""
    write(tmp_path, body, who_jsonl='{"who": "Cy"}\n\n{"who": "Di", "name": "d"}\n',
          adds_yaml="- {a: 1, low: 2}\n- {a: 41, low: 42, name: big}\n")
    r, report = run_json(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    names = [t["name"] for t in report["tests"]]
    assert names == ["greets [case=1]", "greets [case=bob]", "greets from jsonl [case=1]",
                     "greets from jsonl [case=d]", "adds from yaml [case=1]",
                     "adds from yaml [case=big]"]
    by = {t["name"]: t for t in report["tests"]}
    assert by["greets [case=bob]"]["response"]["result"]["content"][0]["text"] == "Hello, Bob!"
    assert by["greets from jsonl [case=d]"]["location"] == {"file": "who.jsonl", "line": 3,
                                                            "column": 1}
    assert by["adds from yaml [case=big]"]["location"]["line"] == 2


def test_filter_shard_and_stable_ids_when_cases_are_appended(tmp_path: Path) -> None:
    write(tmp_path, ADDS, adds_csv=CSV)
    r, report = run_json(tmp_path, "--filter", "zero")
    assert [t["name"] for t in report["tests"]] == ["adds [case=zero]"]
    assert r.returncode == 0
    shards = [run_json(tmp_path, "--shard", f"{i}/2")[1] for i in (1, 2)]
    ids = [[t["id"] for t in s["tests"]] for s in shards]
    assert len(ids[0]) == 2 and len(ids[1]) == 1 and not set(ids[0]) & set(ids[1])
    before = {t["id"] for t in report["tests"]} | set(ids[0]) | set(ids[1])
    (tmp_path / "adds.csv").write_text(CSV + "more,2,3,5\n")
    _, grown = run_json(tmp_path)
    after = [t["id"] for t in grown["tests"]]
    assert set(after[:3]) == before and after[3] == "suite.yml::tool::adds[case=more]"


def test_every_reporter_and_merge_carry_case_rows(tmp_path: Path) -> None:
    write(tmp_path, ADDS, adds_csv=CSV)
    outs = []
    for i in (1, 2):
        cli("run", "suite.yml", "--shard", f"{i}/2", "--reporter", "json", "--output",
                f"s{i}.json", cwd=tmp_path)
        outs.append(f"s{i}.json")
    r = cli("merge", *outs, "--output", "merged.json", cwd=tmp_path)
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert r.returncode == 1, r.stderr
    assert sorted(t["cell"]["case"] for t in merged["tests"]) == ["small", "wrong", "zero"]
    for fmt in ("pretty", "junit", "md", "html", "sarif", "gitlab", "ndjson", "tap"):
        r = cli("report", "merged.json", "--format", fmt, cwd=tmp_path)
        assert "case=wrong" in r.stdout, (fmt, r.stdout[:500], r.stderr)
    sarif = json.loads(cli("report", "merged.json", "--format", "sarif",
                               cwd=tmp_path).stdout)
    (result,) = sarif["runs"][0]["results"]
    where = result["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"].endswith("suite.yml") or \
        where["artifactLocation"]["uri"].endswith("adds.csv")


def test_validate_counts_case_rows(tmp_path: Path) -> None:
    write(tmp_path, ADDS, adds_csv=CSV)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok: suite.yml (1 tool, 0 evals, 0 agents, 3 case rows)\n"


BAD_TIMEOUT = """tools:
  - name: waits
    server: ex
    tool: greet
    timeout: "${t}"
    args: {name: x}
    cases: {file: t.csv}
"""


@pytest.mark.parametrize(("body", "files", "expected"), [
    (ADDS, {"adds_csv": "name,a,b,sum\nok,1,2,3\nshort,1,2\n"},
     "adds.csv:3:1: this row has 3 cells; the header names 4 (name, a, b, sum)"),
    (ADDS, {"adds_csv": "name,a,b,sum\nx,1,2,3\nx,2,2,4\n"},
     "adds.csv:3:1: two cases are named `x` (the first on line 2); case names make test ids"),
    (ADDS, {"adds_csv": "name,a,2b,sum\n"},
     "adds.csv:1:8: case variable `2b`: a name is letters, digits and `_`"),
    (ADDS, {"adds_csv": 'name,a,b,sum\nq,"1,2,3\n'}, "adds.csv:2:1: invalid CSV:"),
    (ADDS, {"adds_csv": ""}, "adds.csv:1:1: the CSV file is empty"),
    (ADDS.replace("adds.csv", "nope.csv"), {},
     "suite.yml:9:19: tools[0].cases.file: cases file: nope.csv: cannot read the file"),
    (ADDS.replace("adds.csv", "adds.jsonl"),
     {"adds_jsonl": '{"a": 1, "b": 2, "sum": 3}\n{"a": 1, "b": 2 "sum": 3}\n'},
     "adds.jsonl:2:17: invalid JSON: Expecting ',' delimiter"),
    (ADDS.replace("adds.csv", "adds.jsonl"),
     {"adds_jsonl": '{"a": 1, "b": 2, "sum": 3}\n{"a": 1, "b": 2}\n'},
     "adds.jsonl:2:1: tools[0].expect[0].matcher.exact: case `2` gives no value for `sum`"),
    (ADDS.replace("adds.csv", "adds.yaml"), {"adds_yaml": "a: 1\n"},
     "adds.yaml:1:1: a YAML case file is a list of mappings"),
    (ADDS.replace("adds.csv", "adds.yaml"), {"adds_yaml": "- {a: 1, b: 2, sum: 3}\n- 7\n"},
     "adds.yaml:2:3: [1]: a case is a mapping of variable names to values"),
    (BAD_TIMEOUT, {"t_csv": "t\n5\nsoon\n"},
     "t.csv:3:1: tools[0].timeout: "),
    (ADDS.replace("adds.csv", "adds.txt"), {},
     "suite.yml:9:19: tools[0].cases.file: "),
])
def test_bad_case_files_point_at_line_and_column(tmp_path: Path, body: str,
                                                 files: dict[str, str], expected: str) -> None:
    write(tmp_path, body, **files)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert expected in r.stderr, r.stderr
    assert r.stdout == ""


def test_a_case_value_of_the_wrong_type_names_its_case_and_cell(tmp_path: Path) -> None:
    write(tmp_path, BAD_TIMEOUT, t_csv="name,t\nfine,5\nlate,soon\n")
    r = cli("validate", "suite.yml", cwd=tmp_path)
    (line,) = r.stderr.splitlines()
    assert line.startswith("t.csv:3:6: tools[0].timeout: ") and line.endswith("(case `late`)")


def test_a_mistake_of_the_test_itself_is_reported_once_at_the_test(tmp_path: Path) -> None:
    body = ADDS.replace("    tool: add\n", "    tool: add\n    retries: 3\n")
    write(tmp_path, body, adds_csv=CSV)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("suite.yml:8:5: tools[0].retries"), lines


def test_case_variables_and_suite_variables_mix(tmp_path: Path) -> None:
    body = """variables:
  greeting: Hello
tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: "${who}"}
    cases: [{who: Ada}, {who: "${greeting}"}]
    expect:
      - {target: "result.content[0].text", matcher: {exact: "${greeting}, ${who}!"}}
      - {target: "result.content[0].text", matcher: {not: {contains: "$${who}"}}}
  - name: undefined
    server: ex
    tool: greet
    args: {name: "${nobody}"}
"""
    write(tmp_path, body)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "suite.yml:18:18: tools[1].args.name: undefined variable `nobody` (declare it under "
        "`variables:`)"]
    write(tmp_path, body.split("  - name: undefined")[0])
    r, report = run_json(tmp_path)
    assert r.returncode == 0, report["tests"][0]["assertions"]
    assert report["tests"][1]["response"]["result"]["content"][0]["text"] == "Hello, Hello!"
    assert report["tests"][0]["assertions"][1]["spec"] == {"not": {"contains": "${who}"}}


def test_a_table_has_at_most_100000_cases(tmp_path: Path) -> None:
    write(tmp_path, ADDS, adds_csv="a\n" + "1\n" * 100_001)
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "adds.csv:100002:1: the table has 100,001 cases, more than 100,000; split the test"]


def test_a_case_file_must_be_a_regular_file(tmp_path: Path) -> None:
    write(tmp_path, ADDS.replace("adds.csv", "dir.csv"))
    (tmp_path / "dir.csv").mkdir()
    r = cli("validate", "suite.yml", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith("suite.yml:9:19: tools[0].cases.file: cases file: dir.csv: is a "
                               "directory"), r.stderr
