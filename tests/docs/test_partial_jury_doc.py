"""The partial-jury worked examples are real runs: docs/jury.md's suite (with the example server's
command and the loopback judge's address put in) and docs/evals.md's panel print the lines the
pages quote (durations and costs aside) with the exit codes they state, including under
`--require-judge`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO, SERVER
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers and subprocesses

GATEWAY = "http://127.0.0.1:4000/v1"
COMMAND = '["python3", "examples/server/example_server.py"]'


def example(page: str, end: str) -> tuple[str, list[list[str]]]:
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    section = text[text.index("Worked example, from a real run"):text.index(end)]
    suite = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    outputs = re.findall(r"```text\n(.*?)```", section, re.DOTALL)[:3]  # the three runs
    assert suite is not None and len(outputs) == 3
    return suite[1], [o.splitlines() for o in outputs]


def shown(lines: list[str]) -> list[str]:
    return [re.sub(r"\b\d+ ms(  \$[0-9.]+)?$|cost \$[0-9.]+$", "…", line) for line in lines]


def missing(quoted: list[str], out: list[str]) -> list[str]:
    return [line for line in shown(quoted) if line not in out]


def test_the_partial_jury_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    with JudgeServer() as js:
        check(tmp_path, js)


def check(tmp_path: Path, js: JudgeServer) -> None:
    suite, (passed, deferred, required) = example("jury.md", "## Agreement")
    assert COMMAND in suite and GATEWAY in suite
    for model, score in (("llama-3.3-70b", 0.9), ("qwen-2.5-72b", 0.8), ("mistral-large", 0.85)):
        js.script(model, Verdict(score=score, reason="names checkout and v2.31.4"))
    path = tmp_path / "jury.yml"
    command = json.dumps([sys.executable, str(SERVER)])
    path.write_text(suite.replace(COMMAND, command).replace(GATEWAY, js.base_url),
                    encoding="utf-8")

    def run(*args: str) -> tuple[int, list[str]]:
        r = cli("run", "jury.yml", "--no-cache", *args, cwd=tmp_path)
        return r.returncode, shown(r.stdout.splitlines())

    code, out = run()
    assert code == ExitCode.OK
    assert missing(passed, out) == [], "\n".join(out)
    path.write_text(path.read_text(encoding="utf-8").replace("quorum: 0.5", "quorum: 1.0"),
                    encoding="utf-8")
    code, out = run()
    assert code == ExitCode.OK
    assert missing(deferred, out) == [], "\n".join(out)
    code, out = run("--require-judge")
    assert code == ExitCode.TESTS_FAILED
    assert missing(required, out) == [], "\n".join(out)
    assert js.count() == 9  # three present jurors, three runs; nothing sent for the others


def test_the_partial_panel_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    suite, (deferred, passed, required) = example("evals.md", "Juries and panels carry")
    (tmp_path / "panel.yml").write_text(suite, encoding="utf-8")
    with JudgeServer() as js:
        env = {"OPENAI_API_KEY": "sk-test-openai", "OPENAI_BASE_URL": js.base_url}

        def run(score: float, *args: str) -> tuple[int, list[str]]:
            for model in ("gpt-4o-mini", "gpt-4.1-mini", "o4-mini"):
                js.script(model, Verdict(score=score, reason="names 2.3.0 and the change"))
            r = cli("eval", "panel.yml", "--no-cache", *args, cwd=tmp_path, env=env)
            return r.returncode, shown(r.stdout.splitlines())

        code, out = run(0.9)
        assert code == ExitCode.OK and missing(deferred, out) == [], "\n".join(out)
        code, out = run(1.0)
        assert code == ExitCode.OK and missing(passed, out) == [], "\n".join(out)
        for score in (0.9, 1.0):
            code, out = run(score, "--require-judge")
            assert code == ExitCode.TESTS_FAILED and missing(required, out) == [], "\n".join(out)
        assert "claude-haiku-4-5" not in js.models_seen()
