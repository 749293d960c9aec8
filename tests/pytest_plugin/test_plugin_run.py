"""Suite files run under pytest (docs/python.md, "pytest"), each in a pytest process of its own
against the example server: one pipeline run per file for the items pytest kept, each item
reporting its row (mcptest's reasons on failure, a skip with the reason for an unreachable
judge), `-x`, junit through `--junitxml`, and a judge reached through the loopback server."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from support.cli_run import HEAD, MIXED
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # pytest processes that start the example server

SERVER = HEAD  # the test process's shared example server: the plugin's runs are the point
RECORDER = '''import pathlib
def judge(ctx):
    with open(pathlib.Path(__file__).parent / "judged.txt", "a") as f:
        f.write(ctx["test"] + "\\n")
    return True
'''


def judged_test(name: str) -> str:
    """A tool test whose custom judge writes its name to judged.txt when it runs."""
    return f"""  - name: {name}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{custom-judge: {{python: "recorder:judge"}}}}
"""


def test_items_report_their_rows_and_junit_records_them(pytester: pytest.Pytester,
                                                        session_process) -> None:
    pytester.makefile(".yml", mcptest_mixed=MIXED)
    result = session_process("-rs", "--junitxml=junit.xml")
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "*_ tool: adds wrongly _*",
        "✗ FAIL  adds wrongly  mcptest_mixed.yml:15  *",
        "    #0 result.structuredContent.result · exact · failed (mcptest_mixed.yml:20)",
        "        note: two and three make six",
        "        expected: 6",
        "        actual:   5",
        "        expected 6, got 5",
    ])
    result.stdout.fnmatch_lines(["SKIPPED [[]1[]] mcptest_mixed.yml:23: deferred: *judge-m*"])
    suite = ET.parse(pytester.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert sorted(cases) == ["adds wrongly", "greets", "reads as a release note"]
    assert cases["adds wrongly"].find("failure") is not None
    assert cases["reads as a release note"].find("skipped") is not None
    status = {n: c.find("properties/property[@name='mcptest_status']") for n, c in cases.items()}
    assert {n: p.get("value") for n, p in status.items() if p is not None} == {
        "adds wrongly": "failed", "greets": "passed", "reads as a release note": "deferred"}


def test_the_file_runs_once_with_the_items_pytest_kept(pytester: pytest.Pytester,
                                                       session_process) -> None:
    pytester.makefile(".py", recorder=RECORDER)
    pytester.makefile(".yml", mcptest_judged=SERVER + "tools:\n" + "".join(
        judged_test(n) for n in ("alpha", "beta", "gamma")))
    result = session_process("-k", "alpha or gamma")
    result.assert_outcomes(passed=2, deselected=1)
    judged = (pytester.path / "judged.txt").read_text(encoding="utf-8").split()
    assert sorted(judged) == ["alpha", "gamma"]


def test_dash_x_stops_before_the_next_file_runs(pytester: pytest.Pytester,
                                                session_process) -> None:
    pytester.makefile(".py", recorder=RECORDER)
    pytester.makefile(".yml", mcptest_a=MIXED, mcptest_b=SERVER + "tools:\n" + judged_test("b"))
    result = session_process("-x")
    result.assert_outcomes(passed=1, failed=1)
    assert not (pytester.path / "judged.txt").exists()  # mcptest_b.yml never ran


def test_a_judged_test_passes_when_its_judge_answers(pytester: pytest.Pytester,
                                                     session_process,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makefile(".yml", mcptest_mixed=MIXED)
    with JudgeServer() as js:
        js.script("judge-m", Verdict(score=0.9))
        for key, value in js.gateway_env().items():
            monkeypatch.setenv(key, value)
        result = session_process("-k", "release", "--mcptest", "no_cache=true")
        assert js.count("judge-m") == 1
    result.assert_outcomes(passed=1, deselected=2)


def test_an_internal_error_fails_every_item_of_the_file(pytester: pytest.Pytester,
                                                        session_process,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPTEST_INJECT_FAULT", "1")
    pytester.makefile(".yml", mcptest_mixed=MIXED)
    result = session_process("-k", "greets or adds")
    result.assert_outcomes(failed=2, deselected=1)
    result.stdout.fnmatch_lines(["internal error of mcptest while running mcptest_mixed.yml: "
                                 "InjectedFault: *(`mcptest run` would exit 70)"])


@pytest.mark.parametrize(("per", "headers"), [
    ("file", ["*mcptest: 1 of 1 tests from 1 file(s), 1 server(s)*"] * 2),
    ("session", ["*mcptest: 2 of 2 tests from 2 file(s), 2 server(s)*"]),
])
def test_one_run_per_file_or_per_session(pytester: pytest.Pytester, session_process,
                                         per: str, headers: list[str]) -> None:
    pytester.makefile(".py", recorder=RECORDER)
    pytester.makefile(".yml", mcptest_a=SERVER + "tools:\n" + judged_test("a"),
                      mcptest_b=SERVER + "tools:\n" + judged_test("b"))
    result = session_process("-o", f"mcptest_run_per={per}", "-o", "log_cli=true",
                             "--log-cli-level=INFO")
    result.assert_outcomes(passed=2)
    runs = [line for line in result.outlines if "mcptest: " in line and " tests from " in line]
    assert len(runs) == len(headers), runs
    result.stdout.fnmatch_lines(headers)
    assert sorted((pytester.path / "judged.txt").read_text(encoding="utf-8").split()) == ["a", "b"]


def test_two_files_spend_from_one_session_cap(pytester: pytest.Pytester,
                                              session_process) -> None:
    """A custom judge reporting $0.20 a call without a declared worst case, three tests in
    each of two files, one `max_cost = 0.5` for the session: the files share one ledger, so
    two verdicts fit in all ($0.40) and the other four are skipped for the budget."""
    pytester.makefile(".py", paid="""import pathlib
def judge(ctx):
    with open(pathlib.Path(__file__).parent / "judged.txt", "a") as f:
        f.write(ctx["test"] + "\\n")
    return {"verdict": "pass", "cost_usd": 0.2}
""")
    for f in ("a", "b"):
        body = SERVER + "tools:\n" + "".join(
            judged_test(f"{f}{k}").replace("recorder:judge", "paid:judge") for k in (1, 2, 3))
        pytester.makefile(".yml", **{f"mcptest_{f}": body})
    result = session_process("-rs", "--mcptest", "max_cost=0.5")
    result.assert_outcomes(passed=2, skipped=4)
    judged = (pytester.path / "judged.txt").read_text().split()
    assert len(judged) == 2 and all(name.startswith("a") for name in judged), judged
