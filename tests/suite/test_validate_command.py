"""`mcptest validate`: file arguments, `--config`, default discovery, and a light import path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcptest.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = """\
servers:
  s: {url: 'https://x.example/mcp'}
tools:
  - {name: a, server: s, tool: x}
  - {name: b, server: s, tool: x}
agents:
  - {name: c, models: [gpt-4o], servers: [s], prompt: hi}
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_ok_line_counts_tests(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yml").write_text(GOOD)
    assert main(["validate", "s.yml"]) == 0
    assert capsys.readouterr() == ("ok: s.yml (2 tools, 0 evals, 1 agent)\n", "")


def test_config_is_an_alias_of_a_file_argument(here: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (here / "a.yml").write_text(GOOD)
    (here / "b.yml").write_text("servers: {}\n")
    assert main(["validate", "a.yml", "--config", "b.yml"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == ["ok: a.yml (2 tools, 0 evals, 1 agent)",
                                "ok: b.yml (0 tools, 0 evals, 0 agents)"]


@pytest.mark.parametrize(("present", "chosen"), [
    (["mcptest.yaml"], "mcptest.yaml"),
    (["mcptest.yml"], "mcptest.yml"),
    (["mcptest.yml", "mcptest.yaml"], "mcptest.yaml"),
])
def test_default_file_discovery(here: Path, capsys: pytest.CaptureFixture[str],
                                present: list[str], chosen: str) -> None:
    for name in present:
        (here / name).write_text(GOOD)
    assert main(["validate"]) == 0
    assert capsys.readouterr().out == f"ok: {chosen} (2 tools, 0 evals, 1 agent)\n"


def test_no_file_and_no_default_is_exit_2(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "mcptest.yaml" in err and len(err.splitlines()) == 1


def test_validate_imports_no_sdk_judge_http_or_template_library() -> None:
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.yml"))
    assert examples
    probe = (
        "import sys, json\n"
        "from mcptest.cli.main import main\n"
        f"code = main(['validate', *{examples!r}])\n"
        "heavy = sorted(m for m in ('mcp', 'litellm', 'httpx', 'jinja2') if m in sys.modules)\n"
        "print(json.dumps({'code': code, 'heavy': heavy}))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report == {"code": 0, "heavy": []}


def test_a_directory_is_one_error_line(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "suites").mkdir()
    assert main(["validate", "suites"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "suites: is a directory; give a suite file\n"


def test_a_selection_suite_is_counted(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A suite of only a `selection:` block said "0 tools, 0 evals, 0 agents" (issue 37): its
    rows (one per model) and prompts are counted."""
    (here / "s.yml").write_text("""servers:
  ex: {command: [python3, server.py]}
selection:
  ex:
    models: [gpt-4o-mini, claude-haiku-4-5]
    prompts:
      - {prompt: "What's the weather in Oslo?", tool: forecast}
      - {prompt: "Add 2 and 3", tool: add}
""")
    assert main(["validate", "s.yml"]) == 0
    assert capsys.readouterr().out == (
        "ok: s.yml (0 tools, 0 evals, 0 agents, 2 selection tests, 2 selection prompts)\n")
