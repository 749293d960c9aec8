"""`mcptest lint` against real servers: the example server (clean and poisoned), a raw server
sending invalid messages, server-everything; suppression, expected failures, the surface check,
and SARIF that GitHub and the SARIF schema accept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from support.cli_run import HEAD
from support.servers import RAW_SERVER, everything_command, example_command

from mcptest.cli.main import main

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"


def write_suite(tmp_path: Path, servers: dict[str, list[str]], extra: str = "",
                name: str = "suite.yml") -> Path:
    lines = ["servers:"]
    for key, argv in servers.items():
        lines += [f"  {key}:", f"    command: {json.dumps(argv)}", "    inherit_env: true"]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return path


def shared_suite(tmp_path: Path, extra: str = "") -> Path:
    """suite.yml naming the test process's shared example server `example` (support.cli_run
    HEAD), for tests where lint's server process and transport are not the point."""
    path = tmp_path / "suite.yml"
    path.write_text(HEAD.replace("\n  ex:\n", "\n  example:\n") + extra, encoding="utf-8")
    return path


def lint(path: Path, tmp_path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "lint.json"
    code = main(["lint", str(path), *extra, "--reporter", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


def found(report: dict[str, Any]) -> set[tuple[str, str | None]]:
    return {(f["rule"], f["subject"]) for f in report["lint"]["findings"]}


def test_clean_example_server_has_no_findings(tmp_path: Path) -> None:
    code, report = lint(write_suite(tmp_path, {"example": example_command()},
                                    "lint:\n  profile: strict\n  probe_invalid_args: true\n"),
                        tmp_path)
    assert report["lint"]["findings"] == []
    assert code == 0
    assert report["lint"]["messages_checked"] > 3
    (server,) = report["servers"]
    # it negotiated 2026-07-28, and a second connection showed it also takes `initialize`
    assert (server["protocol_version"], server["era"]) == ("2026-07-28", "dual-era")


def test_poisoned_example_server_shows_both_planted_faults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPTEST_EXAMPLE_POISONED", "1")
    code, report = lint(write_suite(tmp_path, {"example": example_command()},
                                    "lint:\n  profile: claude-directory\n"), tmp_path)
    assert code == 1
    hits = found(report)
    assert ("injection-hidden-instructions", "release_note") in hits
    assert ("annotations", "get_env") in hits
    poison = next(f for f in report["lint"]["findings"]
                  if f["rule"] == "injection-hidden-instructions")
    assert poison["level"] == "error" and "<IMPORTANT>" in poison["message"]
    assert poison["location"] == {"file": "suite.yml", "line": 2, "column": 3} or \
        poison["location"]["line"] == 2


def test_wire_schema_names_the_message_and_the_schema_path(tmp_path: Path) -> None:
    argv = [sys.executable, str(RAW_SERVER), "badwire"]
    code, report = lint(write_suite(tmp_path, {"raw": argv},
                                    "lint:\n  ignore: [description-short, annotations]\n"),
                        tmp_path)
    assert code == 1
    wire = sorted(f["message"] for f in report["lint"]["findings"] if f["rule"] == "wire-schema")
    assert len(wire) == 2, wire
    assert "notification of notifications/message" in wire[0]
    assert "LoggingMessageNotification.params.level: Field required" in wire[0]
    assert "result of resources/list" in wire[1]
    assert "ListResourcesResult.resources[0].uri: Field required" in wire[1]
    assert report["lint"]["suppressed"] == 10
    assert report["servers"][0]["era"] == "legacy"


def test_invalid_args_probe_flags_protocol_errors_and_accepted_arguments(tmp_path: Path) -> None:
    argv = [sys.executable, str(RAW_SERVER), "serve"]
    code, report = lint(write_suite(
        tmp_path, {"raw": argv},
        "lint:\n  probe_invalid_args: true\n  ignore: [description-short, annotations]\n"),
        tmp_path)
    probe = [f for f in report["lint"]["findings"] if f["rule"] == "invalid-args"]
    assert [(f["subject"], f["level"]) for f in probe] == [("echo", "warning"),
                                                           ("rpc_error", "error")]
    assert "JSON-RPC error -32602" in probe[1]["message"]
    assert code == 1


def test_everything_server_lists_resources_and_prompts_cleanly(tmp_path: Path) -> None:
    code, report = lint(write_suite(tmp_path, {"everything": everything_command()},
                                    "lint:\n  providers: [anthropic]\n"), tmp_path)
    rules = {f["rule"] for f in report["lint"]["findings"]}
    assert "wire-schema" not in rules
    assert report["lint"]["messages_checked"] >= 5
    assert report["servers"][0]["era"] == "legacy"
    assert code in (0, 1)


def test_ignore_per_tool_and_expected_failures_with_a_stale_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPTEST_EXAMPLE_POISONED", "1")
    (tmp_path / "expected.yml").write_text(
        "expected:\n"
        "  - rule: injection-hidden-instructions\n    tool: release_note\n"
        "  - rule: tool-name\n    server: example\n", encoding="utf-8")
    suite = write_suite(tmp_path, {"example": example_command()},
                        "lint:\n  expected_failures: expected.yml\n  ignore:\n"
                        "    - {rule: annotations, tools: [get_env]}\n"
                        "    - injection-imperative\n")
    code, report = lint(suite, tmp_path)
    findings = report["lint"]["findings"]
    # annotations on get_env; the poisoned text's orders are left to the hidden-instructions
    # error, so there is no imperative warning to suppress
    assert report["lint"]["suppressed"] == 1
    poison = next(f for f in findings if f["rule"] == "injection-hidden-instructions")
    assert poison["expected"] is True
    (stale,) = [f for f in findings if f["rule"] == "expected-failure-stale"]
    assert stale["location"]["file"].endswith("expected.yml")
    assert stale["location"]["line"] == 4
    assert code == 1, "the stale entry fails the run"


def test_unknown_rule_in_ignore_is_a_positioned_suite_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(tmp_path, {"example": example_command()},
                        "lint:\n  ignore: [annotation]\n")
    assert main(["lint", str(suite)]) == 2
    assert "suite.yml:6:12" in capsys.readouterr().err


def test_surface_check_update_then_breaking_change_on_the_snapshot_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the test process's shared example server: the snapshot file is the point, not the
    # transport, and four lints over stdio started eight server processes
    suite = shared_suite(tmp_path, "surface:\n  snapshot: surface.json\n")
    code, report = lint(suite, tmp_path)
    assert code == 1 and found(report) == {("surface-snapshot-missing", None)}
    assert main(["lint", str(suite), "--update"]) == 0
    snapshot = tmp_path / "surface.json"
    first = snapshot.read_bytes()
    code, report = lint(suite, tmp_path)
    assert code == 0 and report["lint"]["findings"] == []
    doc = json.loads(first)
    doc["servers"]["example"]["tools"].append({"name": "zzz_gone", "inputSchema": {
        "type": "object"}})
    snapshot.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    code, report = lint(suite, tmp_path)
    assert code == 1
    (removed,) = report["lint"]["findings"]
    assert removed["rule"] == "surface/tool-removed" and removed["level"] == "error"
    assert removed["location"]["file"].endswith("surface.json")
    line = snapshot.read_text(encoding="utf-8").splitlines()[removed["location"]["line"] - 1]
    assert '"name": "zzz_gone"' in line


def test_lint_imports_no_litellm(tmp_path: Path) -> None:
    suite = shared_suite(tmp_path)
    code = ("import sys\nfrom mcptest.cli.main import main\n"
            f"rc = main(['lint', {str(suite)!r}, '--reporter', 'sarif', '--output', "
            f"{str(tmp_path / 'x.sarif')!r}])\n"
            "assert 'litellm' not in sys.modules, 'litellm was imported'\nprint('rc', rc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "rc 0" in done.stdout


@pytest.fixture(scope="module")
def lint_sarif(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SARIF log with lint findings of several rules and surface changes."""
    tmp = tmp_path_factory.mktemp("sarif")
    suite = write_suite(tmp, {"example": example_command()},
                        "surface:\n  snapshot: surface.json\n"
                        "lint:\n  profile: strict\n  providers: [openai, anthropic]\n")
    assert main(["lint", str(suite), "--update"]) in (0, 1)
    snapshot = tmp / "surface.json"
    doc = json.loads(snapshot.read_text(encoding="utf-8"))
    tools = doc["servers"]["example"]["tools"]
    tools.append({"name": "gone", "inputSchema": {"type": "object"}})
    tools[0]["description"] = "An older description."
    snapshot.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    out = tmp / "lint.sarif"
    import os

    os.environ["MCPTEST_EXAMPLE_POISONED"] = "1"
    try:
        assert main(["lint", str(suite), "--reporter", "sarif", "--output", str(out)]) == 1
    finally:
        del os.environ["MCPTEST_EXAMPLE_POISONED"]
    return out


@pytest.mark.xdist_group("lint-sarif")  # one worker: the module fixture (`lint_sarif`, ~3 s) is built once, not on every worker
def test_lint_sarif_is_valid_and_points_into_docs(lint_sarif: Path) -> None:
    log = json.loads(lint_sarif.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert {"mcptest/lint/injection-hidden-instructions", "mcptest/lint/annotations",
            "mcptest/surface/tool-removed", "mcptest/surface/description-changed"} <= set(ids)
    for rule in rules:
        assert rule["helpUri"].startswith("https://github.com/mcptest/action/blob/main/docs/"
                                          "lint.md#")
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
    removed = next(r for r in run["results"] if r["ruleId"] == "mcptest/surface/tool-removed")
    assert removed["level"] == "error"
    loc = removed["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert loc.endswith("surface.json")


@pytest.mark.xdist_group("lint-sarif")
def test_lint_sarif_passes_the_multitool_with_github_rules(
    lint_sarif: Path, sarif_multitool: Path, tmp_path: Path
) -> None:
    out = tmp_path / "validation.json"
    subprocess.run(
        [str(sarif_multitool), "validate", str(lint_sarif), "--rule-kind", "Gh;Sarif",
         "--output", str(out), "--log", "ForceOverwrite"],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.is_file()
    results = json.loads(out.read_text(encoding="utf-8"))["runs"][0].get("results", [])
    problems = [r for r in results if r.get("level", "warning") in ("error", "warning")]
    assert problems == [], [(p["ruleId"], p["message"]) for p in problems]


def test_call_tools_replays_tool_tests_for_structured_content(tmp_path: Path) -> None:
    tests = ("tools:\n"
             "  - {name: broken, server: example, tool: bad_structured, args: {city: Oslo}}\n"
             "  - {name: fine, server: example, tool: forecast, args: {city: Oslo}}\n"
             "lint:\n  call_tools: true\n")
    code, report = lint(shared_suite(tmp_path, tests), tmp_path)
    structured = [f for f in report["lint"]["findings"] if f["rule"] == "structured-content"]
    assert [f["subject"] for f in structured] == ["bad_structured"]
    assert "does not conform to the tool's outputSchema" in structured[0]["message"]
    assert code == 1


def test_markdown_and_pretty_show_findings_errors_first_and_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPTEST_EXAMPLE_POISONED", "1")
    suite = write_suite(tmp_path, {"example": example_command()})
    md, pretty = tmp_path / "lint.md", tmp_path / "lint.txt"
    assert main(["lint", str(suite), "--reporter", "md", "--output", str(md),
                 "--reporter", "pretty", "--output", str(pretty)]) == 1
    text = md.read_text(encoding="utf-8")
    assert "### Lint" in text and "era: example: dual-era" in text
    rows = [ln for ln in text.splitlines() if ln.startswith("| ❌") or ln.startswith("| ⚠️")]
    assert rows[0].startswith("| ❌") and "injection-hidden-instructions" in rows[0]
    assert "<IMPORTANT>" not in text, "server text is escaped"
    plain = pretty.read_text(encoding="utf-8")
    assert "server example: 2026-07-28 (dual-era)" in plain
    assert plain.index("injection-hidden-instructions") < plain.index("annotations")


def test_lint_over_streamable_http_checks_the_wire_and_keeps_the_token_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.servers import HTTP_TOKEN, example_http_server

    monkeypatch.setenv("LINT_TOKEN", HTTP_TOKEN)
    with example_http_server(token=HTTP_TOKEN) as server:
        path = tmp_path / "http.yml"
        path.write_text(f"servers:\n  web:\n    url: {server.url}\n"
                        "    auth: {bearer_token_env: LINT_TOKEN}\n", encoding="utf-8")
        code, report = lint(path, tmp_path)
    assert code == 0, report["lint"]["findings"]
    # it answers a foreign Origin with 403 (and a foreign Host with 421), on 127.0.0.1 only
    assert not [f for f in report["lint"]["findings"] if f["rule"].startswith("http-")]
    assert report["lint"]["messages_checked"] >= 3
    assert report["servers"][0]["transport"] == "streamable-http"
    assert HTTP_TOKEN not in (tmp_path / "lint.json").read_text(encoding="utf-8")


def test_list_order_flags_a_server_that_reorders_its_tools(tmp_path: Path) -> None:
    argv = [sys.executable, str(RAW_SERVER), "shuffle"]
    code, report = lint(write_suite(tmp_path, {"raw": argv}, "lint:\n  ignore: "
                                    "[description-short, annotations, invalid-cursor]\n"),
                        tmp_path)
    (finding,) = report["lint"]["findings"]
    assert finding["rule"] == "list-order" and finding["level"] == "warning"
    assert "echo, cwd" in finding["message"] and "garbage, no_content" in finding["message"]
    assert code == 0
