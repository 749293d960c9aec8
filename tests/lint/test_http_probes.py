"""DNS-rebinding protection (http-origin) and the bind address (http-bind-all): the kernel's
listening table read from fixtures, then real HTTP servers: npm server-everything (no Origin or
Host check, listening on ::) and the example server (both checked, 127.0.0.1 only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lint.test_lint import lint
from support.servers import EVERYTHING_PACKAGE, free_port
from support.tools import node_modules

from mcptest.lint.http_probes import bind_findings, is_loopback_server, listening_addresses
from mcptest.suite.models import RemoteServer

PROC_NET = Path(__file__).parent / "fixtures" / "proc-net"


def remote(url: str, **extra: object) -> RemoteServer:
    return RemoteServer.model_validate({"url": url, **extra})


def test_the_listening_table_is_read_per_port_and_family() -> None:
    assert listening_addresses(8080, PROC_NET) == {"127.0.0.1"}
    assert listening_addresses(8081, PROC_NET) == {"0.0.0.0"}
    assert listening_addresses(8082, PROC_NET) == {"::"}  # the 8082 in tcp is a connection
    assert listening_addresses(8083, PROC_NET) == {"10.0.0.2"}
    assert listening_addresses(8084, PROC_NET) == {"::1"}
    assert listening_addresses(9999, PROC_NET) == set()
    assert listening_addresses(8080, PROC_NET / "missing") is None  # not Linux: cannot tell


@pytest.mark.parametrize(("port", "shown"), [(8081, "0.0.0.0:8081"), (8082, "[::]:8082")])
def test_a_local_server_on_every_interface_is_a_finding(port: int, shown: str) -> None:
    ((rule, level, _, message),) = bind_findings(remote(f"http://127.0.0.1:{port}/mcp"),
                                                 PROC_NET)
    assert (rule, level) == ("http-bind-all", "warning")
    assert message.startswith(f"listens on {shown}, every network interface")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/mcp", "http://localhost:8084/mcp",
                                 "http://127.0.0.1:8083/mcp", "http://127.0.0.1:9999/mcp",
                                 "http://mcp.example.com:8081/mcp"])
def test_loopback_or_remote_servers_are_not(url: str) -> None:
    assert bind_findings(remote(url), PROC_NET) == []


def test_what_counts_as_local() -> None:
    assert is_loopback_server(remote("http://[::1]:1/mcp")) and is_loopback_server(remote("http://0.0.0.0:1/mcp"))
    assert is_loopback_server(remote("http://api.localhost:1/mcp"))
    assert not is_loopback_server(remote("https://mcp.example.com/mcp"))
    started = remote("http://mcp.internal:9000/mcp", start={"command": ["srv"]})
    assert is_loopback_server(started)  # mcptest starts it on this machine


@pytest.mark.slow
def test_server_everything_over_http_serves_a_rebinding_request_on_every_interface(
    tmp_path: Path,
) -> None:
    modules = node_modules(EVERYTHING_PACKAGE)
    if shutil.which("node") is None:
        pytest.fail("node is missing")
    port = free_port()
    suite = tmp_path / "suite.yml"
    suite.write_text(
        "servers:\n  everything:\n"
        f"    url: http://127.0.0.1:{port}/mcp\n"
        "    start:\n"
        f"      command: [{modules / '.bin' / 'mcp-server-everything'}, streamableHttp]\n"
        f"      env: {{PORT: '{port}'}}\n      inherit_env: true\n", encoding="utf-8")
    code, report = lint(suite, tmp_path)
    found = {f["rule"]: f for f in report["lint"]["findings"]}
    origin, bind = found["http-origin"], found["http-bind-all"]
    assert origin["level"] == "error" and "DNS rebinding" in origin["message"]
    assert f"Host: mcptest-rebinding.invalid:{port}" in origin["message"]
    assert bind["message"].startswith(f"listens on [::]:{port}") or \
        bind["message"].startswith(f"listens on 0.0.0.0:{port}")
    assert code == 1


@pytest.mark.slow
@pytest.mark.anyio
@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
async def test_the_example_server_refuses_a_foreign_origin_and_host(era: str) -> None:
    from support.servers import HTTP_TOKEN, example_http_server

    from mcptest.lint.http_probes import observe, origin_findings

    with example_http_server(token=HTTP_TOKEN) as server:
        spec = remote(server.url, auth={"bearer_token_env": "T"})
        env = {"T": HTTP_TOKEN}
        assert await observe("web", spec, era, env) == (200, 403, 421)
        assert await origin_findings("web", spec, era, env) == []
        assert await observe("web", spec, era, {"T": "wrong"}) == (401, 401, 401)
