"""What an editor's test explorer reads from the plugin's collection (docs/python.md, "In VS
Code"). VS Code's Python extension runs pytest with its own plugin, builds its tree from
`session.items` (each item's `nodeid`, `path`, `location[1]` as the 0-based line, a `pytest.File`
parent, no `callspec`), and runs a test by passing its node id back on the command line. The
conftest below reads the same attributes at the same hook; `--collect-only -q` is the shape the
explorer's "refresh" shows in its output. Collection only: no server starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUITE = f"""servers:
  ex:
    command: ["{sys.executable}", "{REPO / 'examples/server/example_server.py'}"]
tools:
  - name: greets plainly
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Hello, Ada!"}}}}
  - name: greets by name
    server: ex
    tool: greet
    args: {{name: "${{who}}"}}
    cases:
      - {{name: ada, who: Ada}}
      - {{name: grace, who: Grace}}
    expect:
      - target: result.content[0].text
        matcher: {{exact: "Hello, ${{who}}!"}}
"""

EXPLORER = '''
import json, pathlib, pytest

def pytest_collection_finish(session):
    rows = [{"nodeid": i.nodeid, "name": i.name, "path": str(i.path), "line": i.location[1],
             "file_parent": isinstance(i.parent, pytest.File),
             "parent_path": str(i.parent.path), "callspec": hasattr(i, "callspec")}
            for i in session.items]
    pathlib.Path("explorer.json").write_text(json.dumps(rows))
'''


def test_collect_only_gives_the_tree_an_editor_builds(pytester: pytest.Pytester,
                                                      session) -> None:
    pytester.makeini("[pytest]\nmcptest_suites = mcp/*.yml\n")
    (pytester.path / "mcp").mkdir()
    suite = pytester.path / "mcp" / "greet.yml"
    suite.write_text(SUITE, encoding="utf-8")
    pytester.makeconftest(EXPLORER)
    result = session("--collect-only", "-q")
    assert result.ret == 0, result.outlines
    assert [line for line in result.outlines if "::" in line] == [
        "mcp/greet.yml::greets plainly",
        "mcp/greet.yml::greets by name [case=ada]",
        "mcp/greet.yml::greets by name [case=grace]",
    ]
    rows = json.loads((pytester.path / "explorer.json").read_text())
    lines = SUITE.splitlines()
    for row in rows:
        assert row["path"] == row["parent_path"] == str(suite)
        assert row["file_parent"] and not row["callspec"]
        # 0-based: the test's own line, a case's own row of its table
        shown = {"greets plainly": "  - name: greets plainly",
                 "greets by name [case=ada]": "      - {name: ada, who: Ada}",
                 "greets by name [case=grace]": "      - {name: grace, who: Grace}"}
        assert lines[row["line"]] == shown[row["name"]], row


def test_a_node_id_from_the_explorer_runs_that_test_alone(pytester: pytest.Pytester,
                                                          session) -> None:
    (pytester.path / "mcp").mkdir()
    (pytester.path / "mcp" / "greet.yml").write_text(SUITE, encoding="utf-8")
    result = session("--collect-only", "-q", "mcp/greet.yml::greets by name [case=grace]")
    assert result.ret == 0, result.outlines
    assert [line for line in result.outlines if "::" in line] == [
        "mcp/greet.yml::greets by name [case=grace]"]
