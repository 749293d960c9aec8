"""A judge URL that speaks TLS to a plain-HTTP port (`https://` by mistake) fails its
handshake before any request leaves: `unreachable` on both routes, $0, no judge call, gap
`environment`. Under litellm it was a retried 500 "server error", counted as 4 judge calls,
with the judge-reliability gap's advice to sharpen the rubric (found by a review)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import greet_suite
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # the example server and the judge stand-in


@pytest.mark.parametrize("route", ["litellm", "auto"])
def test_a_tls_handshake_refused_is_unreachable_on_both_routes(tmp_path: Path, route: str
                                                                ) -> None:
    with JudgeServer() as js:
        js.script("*", Verdict(0.9))
        tls_url = js.base_url.replace("http://", "https://")
        r = cli("run", greet_suite(tmp_path), "--no-cache", "--reporter", "json", "--output",
                "r.json", cwd=tmp_path, env={"MCPTEST_JUDGE_BASE_URL": tls_url,
                                             "MCPTEST_JUDGE_API_KEY": "sk-loopback-judge-key",
                                             "MCPTEST_LLM_ROUTE": route})
        assert js.count() == 0
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    (row,) = report["tests"]
    assert row["gap"] == "environment"
    assert row["assertions"][0]["message"].startswith(f"judge unreachable: {tls_url} (could "
                                                      "not connect")
    assert (report["summary"]["judge_calls"], report["summary"]["cost_usd"]) == (0, 0)
