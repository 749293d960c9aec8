"""`reference:` (docs/cascade.md, "Weighted tiers and a reference"): read from the suite or a
file, shown to LLM judges in its own delimited block, handed to custom judges with the item's
metadata, and compared structurally by `same-shape`. Each case runs the CLI against the example
server (and the loopback judge server), as a user would."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

FORECAST_REF = {"city": "Bergen", "temperature_c": 1.5, "conditions": "rain", "humidity": 40}


def write(tmp_path: Path, body: str, name: str = "suite.yml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


# ----------------------------------------------------------------------- loading a reference

def test_a_missing_reference_file_is_a_load_error_at_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, """tools:
  - name: shape
    server: ex
    tool: forecast
    args: {city: Oslo}
    reference: {file: expected/forecast.json}
    expect:
      - target: result.structuredContent
        matcher: {same-shape: {}}
""")
    r = cli("validate", path, cwd=tmp_path)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stderr
    assert ("suite.yml:9:5: tools[0].reference: reference file `expected/forecast.json` not "
            f"found (looked in {tmp_path})") in r.stderr


def test_a_reference_file_that_is_not_json_is_a_load_error_with_its_json_position(
        tmp_path: Path) -> None:
    (tmp_path / "ref.json").write_text('{"city": "Oslo",\n  "humidity": }\n', encoding="utf-8")
    path = write(tmp_path, """evals:
  - name: e
    prompt: say hi
    response: hi
    rubric: "greets"
    reference: {file: ref.json}
""")
    r = cli("validate", path, cwd=tmp_path)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stderr
    assert ("suite.yml:9:5: evals[0].reference: reference file `ref.json` is not valid JSON: "
            "Expecting value (line 2, column 15)") in r.stderr


def test_same_shape_without_like_needs_a_reference(tmp_path: Path) -> None:
    path = write(tmp_path, """tools:
  - name: shape
    server: ex
    tool: forecast
    args: {city: Oslo}
    expect:
      - target: result.structuredContent
        matcher: {not: {same-shape: {extra_keys: allow}}}
""")
    r = cli("validate", path, cwd=tmp_path)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stderr
    assert ("suite.yml:11:25: tools[0].expect[0].matcher.not.same-shape: `same-shape` has no "
            "`like:` and the test gives no `reference:` to compare with") in r.stderr


# --------------------------------------------------------------------------- same-shape

def test_same_shape_passes_on_the_structure_and_names_every_differing_path(
        tmp_path: Path) -> None:
    (tmp_path / "forecast.json").write_text(json.dumps(FORECAST_REF), encoding="utf-8")
    (tmp_path / "wrong.json").write_text(json.dumps(
        {"city": 7, "temperature_c": 1, "wind": {"speed": 3}, "conditions": "x",
         "humidity": 1}), encoding="utf-8")
    path = write(tmp_path, """tools:
  - name: forecast
    server: ex
    tool: forecast
    args: {city: Oslo}
    reference: {file: "${which}.json"}
    cases:
      - {name: right, which: forecast}
      - {name: wrong, which: wrong}
    expect:
      - target: result.structuredContent
        matcher: {same-shape: {}}
  - name: text holding JSON, extra keys allowed
    server: ex
    tool: search_services
    args: {query: billing}
    expect:
      - target: result.content[0].text
        matcher:
          same-shape: {like: {query: "", items: [{id: "", name: ""}]}, extra_keys: allow}
      - target: result.structuredContent
        matcher: {same-shape: {like: {query: "", total: 1.5, items: [{id: 1}]}}}
""")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    rows = {t["name"]: t for t in rep["tests"]}
    assert rows["forecast [case=right]"]["status"] == "passed", rows
    wrong = rows["forecast [case=wrong]"]["assertions"][0]
    assert wrong["status"] == "failed"
    assert wrong["message"].startswith("shape differs from the reference at 3 path(s): ")
    assert "$.city: expected integer, got string" in wrong["message"]
    assert "$.wind: missing (expected object)" in wrong["message"]
    assert "$.temperature_c: expected integer, got number" in wrong["message"]
    search = rows["text holding JSON, extra keys allowed"]["assertions"]
    assert search[0]["status"] == "passed", search[0]["message"]
    assert search[1]["status"] == "failed"
    msg = search[1]["message"]
    assert "$.items[0].id: expected integer, got string" in msg
    assert "$.items[0].name: unexpected key (string)" in msg
    assert "$.total" not in msg  # 2 is a number too
    assert "$.items[0].id: expected integer, got string" in r.stdout


# --------------------------------------------------------------------------- LLM judges

def _user_message(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def test_llm_judges_get_the_reference_in_its_own_delimited_block(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script("judge-ref", Verdict(score=0.9))
    (tmp_path / "note.txt").write_text("Deployed billing v1.2.3. Rollback: redeploy v1.2.2.",
                                       encoding="utf-8")
    path = write(tmp_path, f"""tools:
  - name: note matches the reference
    server: ex
    tool: release_note
    args: {{service: billing, tag: v1.2.3}}
    reference: {{file: note.txt}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-judge: {{rubric: "Says what the reference says.", model: judge-ref,
                      base_url: "{js.base_url}"}}
      - target: result.content[0].text
        matcher:
          llm-jury: {{rubric: "Jury: as the reference.",
                     jurors: [{{model: judge-ref, base_url: "{js.base_url}"}}]}}
evals:
  - name: eval with an inline reference
    prompt: "Name the capital of Norway."
    response: "Oslo"
    reference: {{capital: Oslo}}
    rubric: "Correct."
    judge: {{model: judge-ref, base_url: "{js.base_url}"}}
""")
    r = cli("eval", path, "--no-cache", cwd=tmp_path)  # the eval and the judged tool test
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    bodies = js.requests("judge-ref")
    assert len(bodies) == 3
    texts = [_user_message(b) for b in bodies]
    jury = next(t for t in texts if "Jury: as the reference." in t)
    assert "Rollback: redeploy v1.2.2.\n</reference_" in jury
    tool = next(t for t in texts if "redeploy v1.2.2" in t and t is not jury)
    system = next(m["content"] for m in bodies[texts.index(tool)]["messages"]
                  if m["role"] == "system")
    nonce = system.split("<candidate_", 1)[1].split(">", 1)[0]
    assert (f"<reference_{nonce}>\nDeployed billing v1.2.3. Rollback: redeploy v1.2.2.\n"
            f"</reference_{nonce}>") in tool
    assert tool.index("<reference_") < tool.index("<candidate_")
    assert f"using the reference between <reference_{nonce}> and </reference_{nonce}>" in tool
    assert f"A reference answer appears between <reference_{nonce}>" in system
    ev = next(t for t in texts if "capital" in t)
    assert '<reference_' in ev and '"capital": "Oslo"' in ev


def test_the_reference_is_part_of_the_cache_key(tmp_path: Path, js: JudgeServer) -> None:
    js.script("judge-ref", Verdict(score=0.9))

    def suite(reference: str) -> Path:
        return write(tmp_path, f"""evals:
  - name: e
    prompt: "Name the capital of Norway."
    response: "Oslo"
    reference: "{reference}"
    rubric: "Correct."
    judge: {{model: judge-ref, base_url: "{js.base_url}"}}
""")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    for reference, sent in (("Oslo", 1), ("Oslo", 1), ("Bergen", 2)):
        r = cli("eval", suite(reference), *cache, cwd=tmp_path)
        assert r.returncode == ExitCode.OK, r.stdout + r.stderr
        assert js.count("judge-ref") == sent


# --------------------------------------------------------------------------- custom judges

PY_JUDGE = '''import json, pathlib
def judge(ctx):
    out = pathlib.Path(__file__).parent / "python-received.json"
    out.write_text(json.dumps({"reference": ctx["reference"], "metadata": ctx["metadata"]}))
    return {"verdict": "pass", "score": 1.0}
'''
CMD_JUDGE = '''import json, sys
ctx = json.load(sys.stdin)
open("command-received.json", "w").write(json.dumps(
    {"reference": ctx["reference"], "metadata": ctx["metadata"]}))
print(json.dumps({"verdict": "pass", "score": 1.0}))
'''


def test_custom_judges_receive_the_reference_and_the_item_metadata(tmp_path: Path) -> None:
    (tmp_path / "refjudge.py").write_text(PY_JUDGE, encoding="utf-8")
    (tmp_path / "cmdjudge.py").write_text(CMD_JUDGE, encoding="utf-8")
    path = write(tmp_path, f"""tools:
  - name: add ${{a}}
    server: ex
    tool: add
    tags: [math]
    args: {{a: "${{a}}", b: 2}}
    reference: {{sum: "${{sum}}"}}
    cases:
      - {{name: small, a: 1, sum: 3}}
    expect:
      - target: result.content[0].text
        matcher: {{custom-judge: {{python: "refjudge:judge"}}}}
      - target: result.content[0].text
        matcher: {{custom-judge: {{command: [{json.dumps(sys.executable)},
                                               cmdjudge.py]}}}}
""")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    test = rep["tests"][0]
    for name in ("python-received.json", "command-received.json"):
        got = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        assert got["reference"] == {"sum": 3}
        meta = got["metadata"]
        assert meta["test"] == test["name"] and meta["test_id"] == test["id"]
        assert meta["tags"] == ["math"] and meta["server"] == "ex" and meta["tool"] == "add"
        assert meta["case"] == "small"
        assert meta["response"]["result"]["structuredContent"] == {"result": 3}


def test_an_agent_test_gives_its_judges_the_reference_and_its_prompt(
        tmp_path: Path, js: JudgeServer) -> None:
    """A scripted agent greets Ada; the LLM judge sees the reference, the command judge gets
    the prompt and servers in its metadata and the transcript as the response; scored
    weighted."""
    js.script("agent-m", [ToolCalls(("greet", {"name": "Ada"})), Fault.text("Hello, Ada!")])
    js.script("judge-ref", Verdict(score=0.5))
    (tmp_path / "cmdjudge.py").write_text(CMD_JUDGE, encoding="utf-8")
    path = write(tmp_path, f"""judge:
  pricing: {{agent-m: {{input: 1, output: 1}}}}
agents:
  - name: greets
    models: [agent-m]
    servers: [ex]
    prompt: "Greet Ada."
    reference: "Hello, Ada!"
    scoring: {{mode: weighted, threshold: 0.7}}
    expect:
      - target: final
        matcher:
          llm-judge: {{rubric: "Greets like the reference.", model: judge-ref,
                      base_url: "{js.base_url}"}}
      - target: final
        matcher: {{custom-judge: {{command: [{json.dumps(sys.executable)}, cmdjudge.py]}}}}
""")
    r, rep = run_json(path, env={**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "agent-m"})
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    t = rep["tests"][0]
    assert t["status"] == "passed" and t["weighted"]["score"] == 0.75, t["message"]
    (judged,) = js.requests("judge-ref")
    assert "\nHello, Ada!\n</reference_" in _user_message(judged)
    got = json.loads((tmp_path / "command-received.json").read_text(encoding="utf-8"))
    assert got["reference"] == "Hello, Ada!"
    meta = got["metadata"]
    assert meta["prompt"] == "Greet Ada." and meta["servers"] == ["ex"] and "tool" not in meta
    assert meta["response"]["final"] == "Hello, Ada!"
    assert meta["response"]["tool_calls"][0]["name"] == "greet"
