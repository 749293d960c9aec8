"""The Action's log is the CLI's console copied inside a stop-commands block: a server that
exits at start quoting its `--token=…` leaves the token out of the log, the job summary and the
PR comment (issue 25; docs/action.md, "What the log shows")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.action_env import PR, TOKEN, Runner
from support.github_server import GitHubServer

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "data" / "hostile_servers" / "echo_secret.py"
SECRET = "cred-7f3a9e1c5b2d"


def test_the_token_a_dying_server_prints_stays_out_of_the_log(runner: Runner) -> None:
    (runner.workspace / "leaky.yml").write_text(f"""servers:
  leaky:
    command: {json.dumps([sys.executable, str(SERVER), "exit"])}
    env: {{ SERVICE_CREDENTIAL: {{ env: UPSTREAM_CRED }} }}
tools:
  - {{ name: who am I, server: leaky, tool: whoami }}
""", encoding="utf-8")
    runner.inputs(suites="leaky.yml")
    runner.env["UPSTREAM_CRED"] = SECRET
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        done = subprocess.run([sys.executable, str(ROOT / "entrypoint.py")],
                              cwd=runner.workspace, env=runner.env, capture_output=True,
                              text=True, timeout=120)
        comments = gh.comments(PR)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "--token=[REDACTED]" in done.stdout, done.stdout
    assert SECRET not in done.stdout + done.stderr + runner.summary
    assert all(SECRET not in c["body"] for c in comments)
