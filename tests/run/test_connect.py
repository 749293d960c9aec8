"""The pure parts of opening a server: child environment, argv checks, secrets, stderr capture,
URL hygiene and exception flattening. No server is started here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from mcptest.errors import ServerNotReadyError
from mcptest.run.connect import (
    HttpStatusLog,
    flatten,
    plan_remote,
    root_cause,
    safe_url,
    startup_failure,
)
from mcptest.run.stderr_log import StderrLog
from mcptest.run.stdio_spawn import plan_stdio
from mcptest.suite.models import RemoteServer, StdioServer

ENV = {
    "PATH": os.environ["PATH"], "HOME": "/home/ci", "USER": "ci",
    "API_TOKEN": "tok-1234567890", "REGION": "eu", "UNRELATED": "x",
}


def stdio(**fields: object) -> StdioServer:
    return StdioServer.model_validate({"command": [sys.executable, "-V"], **fields})


def test_child_env_is_the_allow_list_plus_explicit_values(tmp_path: Path) -> None:
    spec = stdio(env={"LITERAL": "1", "TOKEN": {"env": "API_TOKEN"}, "R": {"env": "REGION"}})
    plan = plan_stdio("s", spec, tmp_path, ENV)
    assert plan.env == {
        "PATH": ENV["PATH"], "HOME": "/home/ci", "USER": "ci",
        "LITERAL": "1", "TOKEN": "tok-1234567890", "R": "eu",
    }
    assert plan.secrets == ["tok-1234567890"]  # "eu" is too short to redact usefully
    assert plan.command == sys.executable and plan.args == ["-V"]


def test_inherit_env_list_and_all(tmp_path: Path) -> None:
    some = plan_stdio("s", stdio(inherit_env=["REGION", "MISSING"]), tmp_path, ENV).env
    assert some is not None and some["REGION"] == "eu" and "MISSING" not in some
    assert "UNRELATED" not in some
    everything = plan_stdio("s", stdio(inherit_env=True), tmp_path, ENV).env
    assert everything == ENV


def test_explicit_env_wins_over_inherited(tmp_path: Path) -> None:
    spec = stdio(inherit_env=True, env={"REGION": "us"})
    assert plan_stdio("s", spec, tmp_path, ENV).env["REGION"] == "us"


def test_missing_env_reference_names_variable_and_key(tmp_path: Path) -> None:
    spec = stdio(env={"K": {"env": "NOPE"}})
    with pytest.raises(ServerNotReadyError) as info:
        plan_stdio("db", spec, tmp_path, ENV)
    assert str(info.value) == "environment variable NOPE (for servers.db.env.K) is not set"


def test_command_checks(tmp_path: Path) -> None:
    with pytest.raises(ServerNotReadyError, match=r"^command not found: no-such-cmd-xyz"):
        plan_stdio("s", StdioServer(command=["no-such-cmd-xyz"]), tmp_path, ENV)
    # a bare name is looked up on the *child's* PATH
    with pytest.raises(ServerNotReadyError, match=r"^command not found: python3"):
        plan_stdio("s", StdioServer(command=["python3"]), tmp_path, {"PATH": str(tmp_path)})
    script = tmp_path / "server.sh"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(ServerNotReadyError, match=r"^command is not executable: \./server\.sh"):
        plan_stdio("s", StdioServer(command=["./server.sh"], cwd="."), tmp_path, ENV)
    script.chmod(0o755)
    plan = plan_stdio("s", StdioServer(command=["./server.sh"], cwd="."), tmp_path, ENV)
    assert plan.cwd == tmp_path / "."


def test_cwd_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ServerNotReadyError, match=r"^working directory .*/gone does not exist$"):
        plan_stdio("s", stdio(cwd="gone"), tmp_path, ENV)
    absolute = plan_stdio("s", stdio(cwd=str(tmp_path)), Path("/nonexistent"), ENV)
    assert absolute.cwd == tmp_path


def test_remote_headers_token_and_secrets() -> None:
    spec = RemoteServer.model_validate({
        "url": "https://mcp.example.com/mcp",
        "auth": {"bearer_token_env": "API_TOKEN"},
        "headers": {"X-Region": {"env": "REGION"}, "X-Static": "v1"},
    })
    plan = plan_remote("api", spec, ENV)
    assert plan.headers == {
        "X-Region": "eu", "X-Static": "v1", "Authorization": "Bearer tok-1234567890",
    }
    assert plan.secrets == ["eu", "tok-1234567890"]  # {env} headers count whatever their length
    with pytest.raises(ServerNotReadyError, match=r"API_TOKEN \(servers.api.auth"):
        plan_remote("api", spec, {"REGION": "eu"})


def test_stderr_tail_reads_without_moving_the_childs_offset() -> None:
    log = StderrLog()
    code = "import sys\nfor i in range(3000): sys.stderr.write(f'line {i}\\n')"
    subprocess.run([sys.executable, "-c", code], stderr=log.file, check=True)
    first = log.tail(50)
    assert first.endswith("line 2999") and len(first) <= 50
    subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('after\\n')"],
                   stderr=log.file, check=True)
    assert log.tail(20).endswith("line 2999\nafter")  # appended, not written over
    log.close()
    assert log.tail() == ""


def test_safe_url_drops_userinfo_query_and_fragment() -> None:
    url = "https://user:pw@h.example:8443/mcp?key=s3cret#x"
    assert safe_url(url) == "https://h.example:8443/mcp"
    assert safe_url("http://127.0.0.1/sse") == "http://127.0.0.1/sse"


@pytest.mark.anyio
async def test_http_status_log_keeps_the_last_error() -> None:
    log = HttpStatusLog()
    request = httpx2.Request("POST", "http://u:p@127.0.0.1:9/mcp?token=abc")
    await log.on_response(httpx2.Response(200, request=request))
    assert log.last_error is None
    await log.on_response(httpx2.Response(
        401, request=request, headers={"WWW-Authenticate": 'Bearer realm="x", error="invalid"'}
    ))
    assert log.last_error == (
        "HTTP 401 Unauthorized from POST http://127.0.0.1:9/mcp "
        '(WWW-Authenticate: Bearer realm="x")'
    )
    assert log.statuses == [200, 401]


def test_flatten_and_root_cause() -> None:
    inner = ValueError("the real problem")
    group = BaseExceptionGroup("outer", [ExceptionGroup("inner", [inner]), KeyboardInterrupt()])
    assert flatten(group)[0] is inner and len(flatten(group)) == 2
    assert root_cause(group) is inner


def test_startup_failure_wording() -> None:
    spec = StdioServer(command=["srv"])
    assert startup_failure(spec, FileNotFoundError(2, "x"), "", None) == "command not found: srv"
    assert startup_failure(spec, RuntimeError("boom"), "a | b", None) == (
        "RuntimeError: boom; stderr: a | b"
    )
    remote = RemoteServer(url="http://u:p@127.0.0.1:1/mcp?k=v")
    refused = ExceptionGroup("g", [httpx2.ConnectError("All connection attempts failed")])
    assert startup_failure(remote, refused, "", None) == (
        "cannot connect to http://127.0.0.1:1/mcp (connection refused or unreachable)"
    )
    assert startup_failure(remote, refused, "", "HTTP 404 Not Found from POST x") == (
        "HTTP 404 Not Found from POST x"
    )
