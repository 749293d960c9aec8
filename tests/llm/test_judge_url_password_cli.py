"""A password in the judge's base URL (`OPENAI_BASE_URL=http://bob:PASSWORD@host/v1`), through
the CLI on the fast route: no report, console line or cache file holds it. An unreachable
judge's message names the URL without its userinfo (host and port kept); a judge that quotes
the URL back has it redacted as a known secret (docs/decisions.md, "A judge base URL's password
stays out of messages and reports")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD
from support.judge_server import Verdict
from support.providers import OpenAIStandIn

from mcptest.errors import ProviderError
from mcptest.exit_codes import ExitCode
from mcptest.llm.connections import Origin
from mcptest.llm.known_secrets import known_secrets

pytestmark = pytest.mark.slow  # the example server, the CLI, a judge stand-in

PASSWORD = "Zq8hunter2pass"
SUITE = HEAD + """tools:
  - name: judged
    server: ex
    tool: release_note
    args: { service: checkout, tag: v2.31.4 }
    expect:
      - target: "result.content[0].text"
        matcher: { llm-judge: { rubric: "names the tag", model: gpt-4o } }
"""


def run(tmp_path: Path, base_url: str, *args: str, route: str = "auto",
        ) -> tuple[Ran, str, dict[str, Any]]:
    """The suite with the base URL in `OPENAI_BASE_URL`; the run's output, every file it wrote
    (report and cache folder) as one text, and the JSON report."""
    path = tmp_path / "suite.yml"
    path.write_text(SUITE, encoding="utf-8")
    out = tmp_path / "report.json"
    r = cli("run", path, "--cache-dir", tmp_path / "cache", "--reporter", "pretty",
            "--reporter", "json", "--output", out, *args, env={
                "OPENAI_API_KEY": "test-openai-key-0f3c9a", "OPENAI_BASE_URL": base_url,
                "MCPTEST_LLM_ROUTE": route})
    written = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                        for p in sorted(tmp_path.rglob("*")) if p.is_file() and p != path)
    return r, written, json.loads(out.read_text(encoding="utf-8"))


def test_an_unreachable_judge_is_named_by_host_and_port_without_the_password(
        tmp_path: Path) -> None:
    r, written, rep = run(tmp_path, f"http://bob:{PASSWORD}@127.0.0.1:9/v1")  # nothing on 9
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    message = rep["tests"][0]["assertions"][0]["message"]
    assert message.startswith(
        "judge unreachable: http://127.0.0.1:9/v1 (connection refused) after 4 tries"), message
    assert PASSWORD not in written and PASSWORD not in r.stdout + r.stderr
    assert "bob" not in message  # the whole userinfo goes: a user name can be the token


def test_under_litellm_a_base_url_with_credentials_is_not_sent_nor_billed(
        tmp_path: Path) -> None:
    """litellm's aiohttp refuses credentials in the URL beside the key's Authorization header
    before sending: one try, $0, no judge call, words that say what to fix."""
    r, written, rep = run(tmp_path, f"http://bob:{PASSWORD}@127.0.0.1:9/v1", "--max-cost",
                          "0.1", route="litellm")
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    message = rep["tests"][0]["assertions"][0]["message"]
    assert message == (
        "judge error (gpt-4o): the request could not be sent: the base URL holds credentials "
        "(user:password@) and the API key is sent as the Authorization header: litellm sends "
        "only one, drop them from the URL after 1 try"), message
    assert (rep["summary"]["cost_usd"], rep["summary"]["judge_calls"]) == (0.0, 0)
    assert PASSWORD not in written and PASSWORD not in r.stdout + r.stderr


def test_a_judge_quoting_the_url_back_has_the_password_redacted(tmp_path: Path) -> None:
    """The URL reaches reports and the cache another way (the judge's reason quotes it): the
    password is a known secret of the run, redacted there too; the verdict is cached."""
    with OpenAIStandIn() as s:
        url = s.base_url.replace("http://", f"http://bob:{PASSWORD}@")
        s.script("gpt-4o", Verdict(score=0.9, reason=f"asked at {url}, the tag is there"))
        r, written, rep = run(tmp_path, url)
        assert s.count() == 1 and s.problems == []
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    assert list((tmp_path / "cache").rglob("*.json")), "the verdict was not cached"
    assert "bob:[REDACTED]@" in json.dumps(rep)
    assert PASSWORD not in written and PASSWORD not in r.stdout + r.stderr


def test_a_base_url_no_request_can_go_to_is_named_without_its_userinfo() -> None:
    for url in (f"ftp://bob:{PASSWORD}@host/v1", f"http://bob:{PASSWORD}@host:port/v1",
                f"bob:{PASSWORD}@host/v1"):
        with pytest.raises(ProviderError) as e:
            Origin.of(url)
        assert e.value.kind == "client" and PASSWORD not in str(e.value), str(e.value)
        assert "host" in str(e.value)


def test_the_password_of_a_base_url_is_a_known_secret() -> None:
    env = {"OPENAI_BASE_URL": f"http://bob:{PASSWORD}@127.0.0.1:9/v1",
           "GATEWAY": "https://tok_0123456789abcdef@gw.example/v1", "HOME_PAGE": "https://x.io/@me",
           # a CI's service containers: names and dummy passwords, not secrets to cut out of
           # every report (every `root`, `test` or `postgres` in it)
           "DATABASE_URL": "postgres://postgres@localhost:5432/app",
           "MYSQL_URL": "mysql://root:root@db:3306/app", "REDIS_URL": "redis://:test@cache:6379"}
    assert set(known_secrets([], env)) == {PASSWORD, "tok_0123456789abcdef"}


def test_a_password_in_an_assertions_or_a_jurors_url_stays_out_of_the_report(
        tmp_path: Path) -> None:
    """The suite's own text, a judge or juror `base_url` as written, is in each row's `spec`:
    any URL's userinfo password is redacted wherever it is quoted, however short (the report,
    and `mcptest view`'s page made from it)."""
    short = "pw1"  # shorter than any known secret: redacted for its place in a URL
    (tmp_path / "suite.yml").write_text(HEAD + f"""tools:
  - name: judged
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: "result.content[0].text"
        matcher: {{llm-judge: {{rubric: "a greeting", model: gpt-4o,
                               base_url: "http://bob:{PASSWORD}@127.0.0.1:9/v1"}}}}
      - target: "result.content[0].text"
        matcher:
          llm-jury:
            rubric: a greeting
            jurors: [{{model: gpt-4o, base_url: "http://eve:{short}@127.0.0.1:9/v1"}},
                     {{model: gpt-4o-mini}}]
""", encoding="utf-8")
    r = cli("run", "suite.yml", "--no-cache", "--reporter", "json", "--output", "r.json",
            cwd=tmp_path, env={"OPENAI_API_KEY": "test-openai-key-0f3c9a"})
    assert (tmp_path / "r.json").exists(), r.stderr
    assert cli("view", "r.json", cwd=tmp_path).returncode == 0
    for name in ("r.json", "r.view.html"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert PASSWORD not in text and f"eve:{short}@" not in text, name
        assert "bob:[REDACTED]@127.0.0.1:9" in text and "eve:[REDACTED]@127.0.0.1:9" in text
