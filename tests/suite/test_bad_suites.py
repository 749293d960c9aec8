"""Malformed suites: `mcptest validate` names file, line, column, key path and the mistake.

Every file in tests/data/bad_suites/ is validated twice: once by one real
`python -m mcptest validate` subprocess over all files (exit code 2, one line per error, no
traceback, nothing on stdout), and once on its own through the CLI entry point in process (exit
code 2, exactly one line, the exact line and column, key path and message).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from mcptest.cli.main import main
from mcptest.errors import SuiteErrors
from mcptest.suite.load import load_suite

DATA = Path(__file__).resolve().parents[1] / "data" / "bad_suites"
LINE = re.compile(r"^(?P<file>[^:\s]+\.yml):(?P<line>\d+):(?P<col>\d+): (?P<rest>.+)$")


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    column: int
    key_path: str  # "" for errors about the whole file
    message: str  # a fragment of the message, matched literally


CASES = [
    Case("invalid_yaml.yml", 8, 1, "tools[0].args.tz",
         "invalid YAML: did not find expected ',' or '}'"),
    Case("tab_indent.yml", 3, 1, "servers.time",
         "invalid YAML: tab character: YAML indents with spaces"),
    Case("bad_indent.yml", 7, 11, "tools[0].tool", "invalid YAML: mapping values are not"
         " allowed in this context (is this line indented like its siblings?)"),
    Case("bad_indent_under.yml", 4, 4, "servers.time", "invalid YAML: did not find expected"
         " key (while parsing a block mapping, which began on line 2, column 3; is this line"
         " indented like its siblings?)"),
    Case("duplicate_key.yml", 4, 5, "servers.time.command",
         "duplicate key `command` (first defined on line 3)"),
    Case("empty.yml", 1, 1, "", "the file is empty"),
    Case("top_level_list.yml", 1, 1, "", "the top level must be a mapping"),
    Case("unknown_top_key.yml", 1, 1, "varables",
         "unknown key `varables` (did you mean `variables`?)"),
    Case("unknown_nested_key.yml", 6, 5, "tools[0].tol",
         "unknown key `tol` (did you mean `tool`?)"),
    Case("wrong_type_list.yml", 7, 11, "tools[0].tags", "expected a list, got a string"),
    Case("wrong_top_type.yml", 1, 10, "servers", "expected a mapping, got a list"),
    Case("missing_required.yml", 4, 5, "tools[0]", "missing required key `tool`"),
    Case("unknown_server.yml", 5, 13, "tools[0].server",
         "unknown server `tmie` (did you mean `time`?)"),
    Case("live_eval_unknown_server.yml", 6, 13, "evals[0].server",
         "unknown server `dcos` (did you mean `docs`?)"),
    Case("agent_unknown_server.yml", 6, 21, "agents[0].servers[1]",
         "unknown server `weather` (declared: time)"),
    Case("bad_regex_matcher.yml", 9, 26, "tools[0].expect[0].matcher.regex",
         "regex does not compile: missing ), unterminated subpattern"),
    Case("bad_regex_when.yml", 9, 25, "evals[0].rubric.criteria[0].when.regex",
         "regex does not compile: unterminated character set"),
    Case("invalid_json_schema.yml", 10, 26, "tools[0].expect[0].matcher.schema.type",
         "invalid JSON Schema: `type` must be one of array, boolean, integer, null, number,"
         " object, string, not `objekt` (did you mean `object`?)"),
    Case("undefined_variable.yml", 9, 18, "tools[0].args.city",
         "undefined variable `citty` (did you mean `city`?)"),
    Case("unterminated_reference.yml", 9, 18, "tools[0].args.city",
         "unterminated `${` (write `$${` for a literal `${`)"),
    Case("env_variable_unset.yml", 9, 19, "tools[0].args.token",
         "variable `token` reads environment variable `MCPTEST_BAD_SUITE_UNSET`, which is"
         " not set"),
    Case("duplicate_test_name.yml", 7, 11, "tools[1].name",
         "duplicate test name `now` (first used on line 4)"),
    Case("unknown_matcher.yml", 9, 19, "tools[0].expect[0].matcher.equals",
         "unknown matcher `equals`"),
    Case("two_matchers.yml", 11, 11, "tools[0].expect[0].matcher.regex",
         "a matcher has exactly one kind, found `contains` and `regex`"),
    Case("not_llm.yml", 11, 13, "tools[0].expect[0].matcher.not",
         "`not` cannot wrap an LLM matcher"),
    Case("rubric_both.yml", 6, 7, "evals[0].rubric",
         "a rubric has either `criteria` or `tree`, never both"),
    Case("unknown_rubric_ref.yml", 9, 19, "evals[0].rubric.ref",
         "unknown rubric `release-notes` (did you mean `release-note`?)"),
    Case("unknown_preset.yml", 6, 15, "evals[0].rubric.preset",
         "unknown preset `helpfullness` (did you mean `helpfulness`?)"),
    Case("bad_literal_scale.yml", 6, 14, "evals[0].rubric.scale",
         "expected `percent` or `{likert: {min, max}}`, got a string"),
    Case("jury_target_without_jury.yml", 11, 17, "tools[0].expect[1].target",
         "`jury.agreement` reads the analytics of the test's one `llm-jury` assertion, but this"
         " test has 0"),
    Case("threshold_out_of_range.yml", 12, 24, "tools[0].expect[0].matcher.llm-judge.threshold",
         "must be at most 1, got 1.5"),
    Case("bad_duration.yml", 7, 14, "tools[0].timeout", "not a duration: '5 minutes'"),
    Case("server_without_command_or_url.yml", 3, 5, "servers.time",
         "a server needs either `command` (stdio) or `url` (HTTP)"),
    Case("server_unknown_key.yml", 3, 5, "servers.time.cmd",
         "unknown key `cmd` (did you mean `command`?)"),
    Case("server_only_unknown_keys.yml", 3, 5, "servers.time",
         "a server needs either `command` (stdio) or `url` (HTTP) (unknown keys `workdir`,"
         " `args`)"),
    Case("bad_url_scheme.yml", 3, 10, "servers.remote.url", "must be an http:// or https:// URL"),
    Case("unknown_transport.yml", 4, 16, "servers.remote.transport",
         "unknown transport `websocket` (one of: streamable-http, sse)"),
    Case("bad_bearer_env.yml", 5, 25, "servers.remote.auth.bearer_token_env",
         "`MY-TOKEN` is not a valid environment variable name"),
    Case("env_value_wrong_type.yml", 5, 11, "servers.time.env.TZ",
         "expected a string or `{env: NAME}`, got a list"),
    Case("missing_cwd.yml", 4, 10, "servers.local.cwd",
         "working directory `no-such-folder` does not exist"),
    Case("strict_panel_same_family.yml", 16, 24,
         "agents[0].expect[0].matcher.llm-jury.jurors[1].model",
         "juror `gpt-4o-mini` is from the openai family, like agent model `openai/gpt-4o`"),
    Case("not_utf8.yml", 2, 31, "", "the file is not UTF-8 text"),
    Case("client_content_with_decline.yml", 6, 11, "servers.shop.client.elicitation[0]",
         "`content` goes with `action: accept`, not `decline`"),
    Case("client_sampling_text_and_model.yml", 9, 11, "tools[0].client.sampling[0]",
         "give exactly one of `text` (scripted) and `model` (a live model)"),
    Case("client_root_not_file.yml", 5, 7, "client.roots[0]",
         "a root is a file:// URI, got 'https://example.com/project'"),
    Case("client_unknown_capability.yml", 5, 32, "servers.shop.client.capabilities[1]",
         "unknown value `elicitaton` (did you mean `elicitation`?)"),
    Case("escalate_tier_rubric.yml", 14, 15, "tools[0].expect[0].matcher.llm-judge.escalate",
         "tier 1 gives its own `rubric`: every tier grades the question of the `llm-judge`"),
    Case("escalate_without_calibration.yml", 12, 13,
         "tools[0].expect[0].matcher.llm-judge.escalate",
         "`escalate` needs a `calibration: {file: …}` (here or at the top of the suite)"),
    Case("escalate_bad_tier.yml", 14, 17, "tools[0].expect[0].matcher.llm-judge.escalate[0]",
         "a tier is `{llm-judge: {model: …}}` or `{llm-jury: {jurors: […]}}` (unknown key"
         " `custom-judge`)"),
]
SEVERAL = [  # several_errors.yml: every mistake of the file, in file order
    Case("several_errors.yml", 7, 14, "tools[0].timeout", "not a duration: 'soon'"),
    Case("several_errors.yml", 9, 13, "tools[1].server", "unknown server `clock`"),
    Case("several_errors.yml", 13, 29, "tools[1].expect[0].matcher.contains",
         "a matcher has exactly one kind, found `exact` and `contains`"),
]


def _expected_line(case: Case) -> str:
    key = f"{case.key_path}: " if case.key_path else ""
    return f"{case.file}:{case.line}:{case.column}: {key}{case.message}"


@pytest.fixture(scope="module")
def batch() -> subprocess.CompletedProcess[str]:
    """One real `python -m mcptest validate` over every data file (cheap on a busy machine)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MCPTEST_BAD_SUITE_UNSET", "MCPTEST_DEBUG")}
    names = sorted(p.name for p in DATA.glob("*.yml"))
    return subprocess.run([sys.executable, "-m", "mcptest", "validate", *names], cwd=DATA,
                          env=env, capture_output=True, text=True, timeout=120)


def _lines_of(result: subprocess.CompletedProcess[str], file: str) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith(f"{file}:")]


def test_every_data_file_has_a_case() -> None:
    covered = {c.file for c in [*CASES, *SEVERAL]}
    assert covered == {p.name for p in DATA.glob("*.yml")}
    assert len(CASES) >= 25


def test_subprocess_exits_2_with_one_line_per_error_and_no_traceback(
    batch: subprocess.CompletedProcess[str],
) -> None:
    assert batch.returncode == 2
    assert batch.stdout == ""  # not one of the files passed
    assert "Traceback" not in batch.stderr
    lines = batch.stderr.splitlines()
    assert all(LINE.match(line) for line in lines), lines
    assert len(lines) == len(CASES) + len(SEVERAL)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.file.removesuffix(".yml"))
def test_bad_suite(
    case: Case, batch: subprocess.CompletedProcess[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Through the process boundary: exactly this line for this file.
    assert _lines_of(batch, case.file) == [
        line for line in batch.stderr.splitlines() if line.startswith(_expected_line(case))
    ]
    assert len(_lines_of(batch, case.file)) == 1, batch.stderr
    # In process, through the real CLI entry point, the file on its own.
    monkeypatch.chdir(DATA)
    monkeypatch.delenv("MCPTEST_BAD_SUITE_UNSET", raising=False)
    assert main(["validate", case.file]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, lines  # one mistake, one line
    m = LINE.match(lines[0])
    assert m, lines[0]
    assert (int(m["line"]), int(m["col"])) == (case.line, case.column), lines[0]
    assert lines[0].startswith(_expected_line(case)), f"{lines[0]}\n!= {_expected_line(case)}"


def test_several_errors_are_all_reported_in_file_order(
    batch: subprocess.CompletedProcess[str],
) -> None:
    lines = _lines_of(batch, "several_errors.yml")
    assert len(lines) == len(SEVERAL), lines
    for line, case in zip(lines, SEVERAL, strict=True):
        assert line.startswith(_expected_line(case)), line


def test_load_suite_raises_the_same_errors_in_process() -> None:
    with pytest.raises(SuiteErrors) as info:
        load_suite(DATA / "several_errors.yml", env={})
    errors = info.value.errors
    assert [(e.pos.line, e.pos.column) for e in errors if e.pos] == [(7, 14), (9, 13), (13, 29)]
    assert [e.key_path for e in errors] == [c.key_path for c in SEVERAL]


def test_good_and_bad_files_together_exit_2_and_report_the_good_one(tmp_path: Path) -> None:
    good = tmp_path / "good.yml"
    good.write_text("servers:\n  s: {command: [python, x.py]}\n")
    result = subprocess.run(
        [sys.executable, "-m", "mcptest", "validate", str(good), str(DATA / "empty.yml")],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == "ok: good.yml (0 tools, 0 evals, 0 agents)\n"
    assert result.stderr.count("\n") == 1 and "empty.yml:1:1: the file is empty" in result.stderr


def test_a_missing_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mcptest", "validate", "nope.yml"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == "nope.yml: cannot read the file: No such file or directory\n"
