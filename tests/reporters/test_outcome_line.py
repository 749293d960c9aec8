"""The run's last line and the HTML title say what happened (issue 37): tests no judge saw are
counted as not judged with their cause, never under a bare "passed"; exit 0 says "every test
passed" only when every test did."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD

pytestmark = pytest.mark.slow  # starts the example server

SUITE = HEAD + """tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "Hello, Ada!"}}
""" + "".join(f"""  - name: polite {i}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: "result.content[0].text"
        matcher: {{llm-judge: {{rubric: "The greeting is polite.", model: gpt-4o-mini}}}}
""" for i in range(3))


def test_not_judged_tests_are_named_in_the_last_line_and_the_title(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    ran = cli("run", "suite.yml", "--no-cache", "--reporter", "pretty", "--reporter", "html",
              "--output", "report.html", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    last = ran.stdout.rstrip().splitlines()[-1]
    assert last == ("1 passed · 3 not judged: no key · exit 0: nothing failed (a test not judged "
                    "is not a pass)")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    assert title is not None
    assert " ".join(title.group(1).split()) == "mcptest: 1 passed · 3 not judged: no key"


def test_a_run_where_every_test_passed_says_so(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE.split("  - name: polite 0")[0], encoding="utf-8")
    ran = cli("run", "suite.yml", "--no-cache", cwd=tmp_path)
    assert ran.stdout.rstrip().splitlines()[-1] == "1 passed · exit 0: every test passed"
