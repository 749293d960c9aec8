"""`::group::` per server in the Action's log, with untrusted text kept out of command parsing
(docs/action.md, "What the log shows")."""

from __future__ import annotations

import io

from reports import make_report
from support.action_env import live_commands

from mcptest.action.groups import write_server_groups
from mcptest.report.models import ServerReport

HOSTILE = "x\n::error::owned\r\n::add-mask::y"


def _report():
    report = make_report(["passed", "failed", "passed", "error"])
    tests = [t.model_copy(update={"server": server}) for t, server in
             zip(report.tests, ["alpha", "beta", "alpha", "beta"], strict=True)]
    tests[1] = tests[1].model_copy(update={"name": f"hostile {HOSTILE}", "message": HOSTILE})
    servers = [ServerReport(name="beta", suite_file=tests[0].suite_file, transport="stdio",
                            status="ready", stderr_tail=f"boom {HOSTILE}")]
    return report.model_copy(update={"tests": tests, "servers": servers})


def test_one_group_per_server_with_its_tests() -> None:
    out = io.StringIO()
    write_server_groups(_report(), out)
    log = out.getvalue()
    live = live_commands(log)
    assert live == [
        "::group::mcptest · suites/demo.yml · alpha: 2 test(s), all passed", "::endgroup::",
        "::group::mcptest · suites/demo.yml · beta: 2 test(s), 2 failed", "::endgroup::",
    ]
    alpha, beta = log.split("::endgroup::")[:2]
    assert "test 0" in alpha and "test 2" in alpha and "hostile" not in alpha
    assert "hostile" in beta and "test 3" in beta and "boom" in beta
    assert "::error::owned" in beta  # shown, inside the stop-commands block only
