"""`mcptest init` against real servers: the written suite validates and runs, and only tests
marked TODO may fail; `--ci` writes a workflow actionlint accepts (docs/init.md)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from support.actionlint import assert_lints_clean
from support.cli_run import mcptest
from support.servers import HTTP_TOKEN, everything_command, example_command, example_http_server

from mcptest.cli.main import main
from mcptest.lint.error_text import STARTER_MESSAGE
from mcptest.suite.load import load_suites
from mcptest.suite.schema import SUITE_SCHEMA_ID

pytestmark = pytest.mark.slow


def _init_and_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *source: str,
                  error_text: frozenset[str] = frozenset()) -> dict:
    """`error_text`: tests that may fail, on the error-text check alone."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", *source, "--output", "tests/mcp/suite.yml", "--ci"]) == 0
    suite = tmp_path / "tests" / "mcp" / "suite.yml"
    text = suite.read_text(encoding="utf-8")
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={SUITE_SCHEMA_ID}"
    assert main(["validate", str(suite)]) == 0
    code = main(["run", str(suite), "--reporter", "json", "--output", "run.json"])
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    not_passed = [t for t in report["tests"] if t["status"] != "passed"]
    for t in not_passed:
        if t["name"] in error_text:
            failed = [a["user_message"] for a in t["assertions"] if a["status"] == "failed"]
            assert failed == [STARTER_MESSAGE], t["name"]
            continue
        assert t["name"].startswith("TODO ") and "todo" in t["tags"], t["name"]
    assert code == (1 if not_passed else 0)
    workflow = tmp_path / ".github" / "workflows" / "mcptest.yml"
    assert_lints_clean(workflow)
    steps = yaml.safe_load(workflow.read_text(encoding="utf-8"))["jobs"]["mcptest"]["steps"]
    action = next(s for s in steps if s.get("uses") == "mcptest/action@v1")
    assert action["with"]["suites"] == "tests/mcp/suite.yml"
    return {"report": report, "text": text}


def test_init_on_the_example_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got = _init_and_run(tmp_path, monkeypatch, "--command", shlex.join(example_command()))
    by_tool = {t["name"].split()[1 if t["name"].startswith("TODO") else 0].rstrip(":"): t
               for t in got["report"]["tests"]}
    assert {"greet", "add", "forecast", "divide"} <= set(by_tool)
    assert "crash" not in by_tool  # destructive: written as a comment, never called
    assert "#   - name: 'TODO crash: destructive (annotations.destructiveHint)" in got["text"]
    kinds = {t["kind"] for t in got["report"]["tests"]}
    assert {"tool", "resource", "prompt"} <= kinds
    suite = yaml.safe_load(got["text"])
    greet = next(t for t in suite["tools"] if t["tool"] == "greet")
    assert greet["args"] == {"name": "TODO: name"}
    assert greet["expect"][1]["matcher"]["schema"]["required"] == ["result"]  # output schema


HIDDEN = {"trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation",
          "get-roots-list", "trigger-sampling-request-async", "trigger-elicitation-request-async"}
"""server-everything's tools for a client that declares sampling, elicitation, roots and tasks
(docs/suites.md#the-client-side: six)."""


def test_init_on_server_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got = _init_and_run(tmp_path, monkeypatch, "--command", shlex.join(everything_command()))
    tests = got["report"]["tests"]
    plain = [t for t in tests if not t["name"].startswith("TODO")]
    assert len(plain) >= 5 and all(t["status"] == "passed" for t in plain)
    # the sample-error enum value is passed over: `success`, and its answer passes
    assert next(t for t in tests if t["name"] == "get-annotated-message answers")["status"] \
        == "passed"
    kinds = {t["kind"] for t in plain}
    assert {"tool", "resource", "prompt"} <= kinds  # every kind the server lists is tested
    suite = yaml.safe_load(got["text"])
    assert {"tools", "resources", "prompts"} <= set(suite)
    assert {t["tool"] for t in suite["tools"]} >= HIDDEN
    (server,) = suite["servers"].values()
    assert server["client"]["capabilities"] == ["sampling", "elicitation", "roots", "tasks"]
    asked = {t["name"].split()[0]: t for t in plain}
    assert {"get-roots-list", "trigger-elicitation-request"} <= set(asked)
    assert asked["trigger-elicitation-request"]["response"]["client"]["elicitations"][0][
        "response"] == {"action": "decline"}
    args_prompt = next(p for p in suite["prompts"] if p["prompt"] == "args-prompt")
    assert args_prompt["args"] == {"city": "TODO: city"} and args_prompt["tags"] == ["todo"]


def test_the_readme_first_suite_is_green(tmp_path: Path) -> None:
    """README.md's first suite, as a reader types it (server-everything from
    tests/tools/node_modules instead of `npx -y`: no network in tests): init, then run with
    `--skip-tag todo`, is green, and holds a test of every tool the server shows a capable client."""
    command = shlex.join(everything_command())
    init = mcptest("init", "--command", command, "--output", "tests/mcp/everything.yml",
                   cwd=tmp_path)
    assert init.returncode == 0, init.stderr
    suite = yaml.safe_load((tmp_path / "tests/mcp/everything.yml").read_text(encoding="utf-8"))
    assert {t["tool"] for t in suite["tools"]} >= HIDDEN
    run = mcptest("run", "tests/mcp/everything.yml", "--skip-tag", "todo", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " failed" not in run.stdout.splitlines()[-3]


def test_init_over_http_with_a_bearer_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCPTEST_INIT_TOKEN", HTTP_TOKEN)
    with example_http_server(token=HTTP_TOKEN) as server:
        got = _init_and_run(tmp_path, monkeypatch, "--url", server.url,
                            "--bearer-token-env", "MCPTEST_INIT_TOKEN")
    (spec,) = yaml.safe_load(got["text"])["servers"].values()
    assert spec.pop("client")["capabilities"] == ["sampling", "elicitation", "roots", "tasks"]
    assert spec == {"url": server.url, "auth": {"bearer_token_env": "MCPTEST_INIT_TOKEN"}}
    assert HTTP_TOKEN not in got["text"]


def test_init_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mcptest.yml").write_text("keep me\n")
    assert main(["init", "--command", shlex.join(example_command())]) == 2
    assert "mcptest.yml exists; pass --force" in capsys.readouterr().err
    assert (tmp_path / "mcptest.yml").read_text() == "keep me\n"


def test_init_on_a_server_that_never_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--command", "no-such-program-here --stdio"]) == 3
    assert "command not found: no-such-program-here" in capsys.readouterr().err
    assert not (tmp_path / "mcptest.yml").exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["--url", "ftp://host/mcp"], "--url: String should match pattern"),
    (["--command", "server 'unclosed"], "--command: No closing quotation"),
    (["--command", "srv", "--bearer-token-env", "T"], "--bearer-token-env goes with --url"),
])
def test_init_usage_errors(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", *argv]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


MANY_TOOLS = Path(__file__).resolve().parents[1] / "data" / "hostile_servers" / "many_tools.py"


def test_init_output_reads_back_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tool named `1e3` and a string example `0o17`: quoted, so the suite loads and sends
    the string (issue 25)."""
    monkeypatch.chdir(tmp_path)
    command = shlex.join([sys.executable, str(MANY_TOOLS), "2"])
    assert main(["init", "--command", command]) == 0
    (suite,) = load_suites([tmp_path / "mcptest.yml"], env={})
    assert [(t.tool, t.args) for t in suite.suite.tools] == [
        ("1e3", {"code": "0o17"}), ("tool_1", {"code": "0o17"})]


def test_init_refuses_a_surface_too_large_for_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    command = shlex.join([sys.executable, str(MANY_TOOLS), "60000"])
    assert main(["init", "--command", command]) == 2
    err = capsys.readouterr().err
    assert "error: the starter suite for 60,000 tool(s) would be larger than the 1,048,576 " \
           "bytes a suite file may hold" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_init_drafts_a_selection_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """`--selection` (docs/selection.md): one TODO prompt per tool from its description, the
    destructive `crash` included (a selection test asks models, never the tool); the block is
    tagged todo, so `--skip-tag todo` leaves it out, and without a key it is deferred."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("MCPTEST_JUDGE_BASE_URL", raising=False)
    assert main(["init", "--command", shlex.join(example_command()), "--selection",
                 "--output", "s.yml"]) == 0
    suite = yaml.safe_load((tmp_path / "s.yml").read_text(encoding="utf-8"))
    [(server, block)] = suite["selection"].items()
    assert server == "mcptest-example" and block["tags"] == ["todo"]
    assert block["name"].startswith("TODO") and block["models"] == ["gpt-4o-mini"]
    prompts = {p["tool"]: p["prompt"] for p in block["prompts"]}
    assert len(prompts) == 12 and "crash" in prompts
    assert prompts["forecast"] == ("TODO: ask, as a user would, for what forecast does: A "
                                   "deterministic weather-like forecast for a city.")
    assert prompts["crash"].endswith("(it is destructive: a model should pick it only when "
                                     "asked)")
    [loaded] = load_suites([tmp_path / "s.yml"], env={})
    assert set(loaded.suite.selection) == {"mcptest-example"}
    assert main(["run", "s.yml", "--skip-tag", "todo", "--reporter", "json", "--output",
                 "a.json"]) in (0, 7)
    kinds = {t["kind"] for t in json.loads((tmp_path / "a.json").read_text())["tests"]}
    assert "selection" not in kinds
    main(["run", "s.yml", "--filter", "tool selection", "--reporter", "json", "--output",
          "b.json"])
    [row] = json.loads((tmp_path / "b.json").read_text())["tests"]
    assert (row["kind"], row["status"]) == ("selection", "deferred")
