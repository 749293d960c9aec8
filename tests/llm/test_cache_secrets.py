"""Secrets at rest: the judge cache never holds a secret of the run, even when the judge echoes it.

A real `mcptest run` (in the test's process, the example server, the loopback judge server) puts secrets
into the candidate; the scripted judge quotes them back in `reason` and `evidence`. Every file
under the cache folder is then read and searched for every secret.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.judge_server import JudgeServer
from support.judge_server import Verdict as ScriptedVerdict

from mcptest.llm.cache import CacheKey, VerdictCache
from mcptest.llm.judge_reply import JudgeVerdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"
JUDGE_KEY = "sk-test-gateway-key-0123456789abcdef"
GH = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
AWS = "AKIA" + "ABCDEFGHIJKLMNOP"
PLAIN = "zq81-plum-4471-orchid"  # a known secret with no recognisable shape


def _suite(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "suite.yml"
    path.write_text(f"""
judge: {{model: judge-a}}
variables:
  who: {{from_env: WHO}}
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
    env: {{SERVICE_TOKEN: {{env: SERVICE_TOKEN}}}}
tools:
  - name: greets
    server: ex
    tool: greet
    args: {{name: "${{who}}"}}
    expect:
      - target: result.content[0].text
        matcher: {{llm-judge: {{rubric: "A greeting for {name}."}}}}
""", encoding="utf-8")
    return path


def _run(suite: Path, js: JudgeServer, who: str, *extra: str) -> Ran:
    """`mcptest run` in the test's process with the environment a subprocess was given (what
    the run writes to its cache is the point, not the process)."""
    env = {**os.environ, **js.gateway_env(JUDGE_KEY), "WHO": who, "SERVICE_TOKEN": PLAIN}
    return cli("run", suite, "--reporter", "json", "--output", "run.json", "--cache-dir",
               ".cache", *extra, env=env, inherit=False, cwd=suite.parent)


def _cache_text(root: Path) -> str:
    files = [p for p in root.rglob("*") if p.is_file()]
    assert files, "the run wrote no cache file"
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)


def test_key_shaped_secrets_a_judge_echoes_never_reach_the_cache(tmp_path: Path) -> None:
    who = f"{GH} {AWS} {JUDGE_KEY}"
    with JudgeServer() as js:
        js.script("judge-a", ScriptedVerdict(0.9, reason=f"It greets {who}", evidence=who))
        r = _run(_suite(tmp_path, "Ada"), js, who)
        assert js.count() == 1
        assert GH in json.dumps(js.requests())  # the judge did see them: nothing was masked
    assert r.returncode == 0, r.stderr
    text = _cache_text(tmp_path / ".cache")
    assert "[REDACTED]" in text
    for secret in (GH, AWS, JUDGE_KEY):
        assert secret not in text
        assert secret not in (tmp_path / "run.json").read_text()


def test_redact_candidates_keeps_known_secrets_from_the_judge(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-a", ScriptedVerdict(0.9, reason="a greeting"))
        # A judge that sees the secret quotes it back.
        js.script("judge-a", ScriptedVerdict(0.9, reason=f"greets {PLAIN}", evidence=PLAIN),
                  candidate=PLAIN)
        r = _run(_suite(tmp_path, "Ada"), js, f"{PLAIN} and {GH}", "--redact-candidates")
        sent = json.dumps(js.requests())
        assert js.count() == 1
    assert r.returncode == 0, r.stderr
    assert PLAIN not in sent and GH not in sent
    assert "[REDACTED] and [REDACTED]" in sent
    text = _cache_text(tmp_path / ".cache")
    assert PLAIN not in text and GH not in text


def test_the_cache_redacts_known_values_of_any_shape(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path, secrets=[PLAIN])
    key = CacheKey(model="m", messages=[{"role": "user", "content": PLAIN}], rubric="r",
                   candidate=PLAIN, sampling={}, repetition=0)
    cache.put(key, JudgeVerdict(score=1.0, reason=f"quotes {PLAIN} and {GH}", evidence=PLAIN))
    text = _cache_text(tmp_path)
    assert PLAIN not in text and GH not in text
    hit = cache.get(key)
    assert hit is not None
    assert hit.reason == "quotes [REDACTED] and [REDACTED]"
    assert hit.evidence == "[REDACTED]"
