"""ServerConnection against real servers: the example server (stdio, Streamable HTTP, SSE),
npm server-everything (2025-11-25 era), PyPI mcp-server-time (2026-07-28 era) and a
hand-rolled stdio server for the failure modes SDK servers never show.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import pytest
from support.servers import (
    HTTP_TOKEN,
    RAW_SERVER,
    HttpServer,
    example_http_server,
    free_port,
    process_env,
    raw_server,
)

from mcptest.errors import ServerNotReadyError
from mcptest.run.session import ServerConnection
from mcptest.suite.models import RemoteServer, StdioServer

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
HERE = Path(__file__).parent


def open_conn(
    spec: StdioServer | RemoteServer, env: dict[str, str] | None = None, name: str = "srv"
) -> AbstractAsyncContextManager[ServerConnection]:
    return ServerConnection.open(name, spec, base_dir=HERE, env=process_env() if env is None else env)


def text_of(result: dict[str, Any] | None) -> str:
    assert result is not None
    return str(result["content"][0]["text"])


# -- the example server over stdio -------------------------------------------------------------

async def test_example_stdio_results_are_raw_wire_json(example_stdio: StdioServer) -> None:
    async with open_conn(example_stdio) as conn:
        assert conn.transport == "stdio"
        assert conn.protocol_version == "2026-07-28"
        assert (conn.server_name, conn.server_version) == ("mcptest-example", "1.0.0")
        by_name = {t["name"]: t for t in conn.tools}
        assert {"greet", "forecast", "divide", "slow", "bad_structured", "crash"} <= set(by_name)
        assert by_name["forecast"]["outputSchema"]["properties"]["humidity"]["maximum"] == 100

        greet = await conn.call_tool("greet", {"name": "Ada"}, timeout=10)
        assert greet.error is None and greet.transport_error is None and not greet.timed_out
        assert text_of(greet.result) == "Hello, Ada!"
        assert greet.duration_ms > 0

        fc = await conn.call_tool("forecast", {"city": "Oslo"}, timeout=10)
        again = await conn.call_tool("forecast", {"city": "Oslo"}, timeout=10)
        sc = fc.result["structuredContent"]
        assert set(sc) == {"city", "temperature_c", "conditions", "humidity"}
        assert sc["city"] == "Oslo" and sc == again.result["structuredContent"]
        assert "isError" in fc.result and "_meta" in fc.result  # camelCase wire keys, kept

        err = await conn.call_tool("divide", {"a": 1, "b": 0}, timeout=10)
        assert err.result["isError"] is True and err.error is None
        assert "division by zero" in text_of(err.result)

        # structuredContent that breaks the advertised outputSchema reaches us untouched
        bad = await conn.call_tool("bad_structured", {"city": "Rome"}, timeout=10)
        assert bad.transport_error is None
        assert bad.result["structuredContent"]["temperature_c"] == "warm"
        assert by_name["bad_structured"]["outputSchema"]["properties"]["temperature_c"]["type"] == (
            "number"
        )


async def test_per_call_timeout_leaves_the_session_usable(example_stdio: StdioServer) -> None:
    async with open_conn(example_stdio) as conn:
        slow = await conn.call_tool("slow", {"seconds": 30}, timeout=0.3)
        assert slow.timed_out is True
        assert slow.result is None and slow.error is None
        assert "0.3s" in (slow.transport_error or "")
        quick = await conn.call_tool("slow", {"seconds": 0}, timeout=10)
        assert quick.timed_out is False
        assert text_of(quick.result) == "done after 0.0s"


async def test_concurrent_calls_share_one_connection(example_stdio: StdioServer) -> None:
    names = [f"n{i}" for i in range(8)]
    got: dict[str, str] = {}
    async with open_conn(example_stdio) as conn:

        async def one(name: str) -> None:
            await conn.call_tool("slow", {"seconds": 0.2}, 10)  # overlap on the server side
            got[name] = text_of((await conn.call_tool("greet", {"name": name}, 10)).result)

        async with anyio.create_task_group() as tg:
            for name in names:
                tg.start_soon(one, name)
    assert got == {name: f"Hello, {name}!" for name in names}


async def test_legacy_pin_uses_the_handshake(example_stdio: StdioServer) -> None:
    spec = example_stdio.model_copy(update={"protocol": "legacy"})
    async with open_conn(spec) as conn:
        assert conn.protocol_version == "2025-11-25"
        assert text_of((await conn.call_tool("greet", {"name": "Bo"}, 10)).result) == "Hello, Bo!"


async def test_env_passing_and_secrets(example_stdio: StdioServer) -> None:
    env = {**process_env(), "MY_SECRET": "s3cret-value-123", "NOT_PASSED": "nope", "SHORT": "1"}
    spec = StdioServer.model_validate({
        "command": example_stdio.command,
        "env": {"GREETING": "hi", "API_KEY": {"env": "MY_SECRET"}, "FLAG": {"env": "SHORT"}},
    })
    async with open_conn(spec, env) as conn:
        got = {}
        for var in ("GREETING", "API_KEY", "NOT_PASSED", "FLAG", "PATH"):
            got[var] = text_of((await conn.call_tool("get_env", {"name": var}, 10)).result)
        assert got["GREETING"] == "hi" and got["API_KEY"] == "s3cret-value-123"
        assert got["FLAG"] == "1"
        assert got["NOT_PASSED"] == ""  # only HOME, LOGNAME, PATH, SHELL, TERM, USER by default
        assert got["PATH"] == env["PATH"]
        assert conn.secrets() == ["s3cret-value-123"]  # "1" is too short to be worth redacting

    inherit = spec.model_copy(update={"inherit_env": ["NOT_PASSED"]})
    async with open_conn(inherit, env) as conn:
        out = await conn.call_tool("get_env", {"name": "NOT_PASSED"}, 10)
        assert text_of(out.result) == "nope"


async def test_missing_env_reference_is_not_ready(example_stdio: StdioServer) -> None:
    spec = StdioServer.model_validate(
        {"command": example_stdio.command, "env": {"KEY": {"env": "MCPTEST_UNSET_VAR_X"}}}
    )
    expected = "environment variable MCPTEST_UNSET_VAR_X (for servers.srv.env.KEY) is not set"
    with pytest.raises(ServerNotReadyError, match=re.escape(expected)):
        async with open_conn(spec, {"PATH": os.environ["PATH"]}):
            pass


async def test_relative_cwd_resolves_against_base_dir(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    spec = StdioServer(command=[sys.executable, str(RAW_SERVER)], cwd="work")
    async with ServerConnection.open("raw", spec, base_dir=tmp_path, env=process_env()) as conn:
        out = await conn.call_tool("cwd", {}, 10)
        assert Path(text_of(out.result)).resolve() == (tmp_path / "work").resolve()
    missing = StdioServer(command=[sys.executable, str(RAW_SERVER)], cwd="nowhere")
    with pytest.raises(ServerNotReadyError, match="nowhere"):
        async with ServerConnection.open("raw", missing, base_dir=tmp_path, env=process_env()):
            pass


# -- crashes -----------------------------------------------------------------------------------

async def test_crash_mid_run_turns_pending_and_later_calls_into_transport_errors(
    example_stdio: StdioServer,
) -> None:
    async with open_conn(example_stdio) as conn:
        assert text_of((await conn.call_tool("greet", {"name": "A"}, 10)).result) == "Hello, A!"
        outcomes = {}

        async def pending_call() -> None:
            outcomes["pending"] = await conn.call_tool("slow", {"seconds": 60}, timeout=60)

        with anyio.fail_after(20):  # a hang would be the bug; 60 s calls must end at the crash
            async with anyio.create_task_group() as tg:
                tg.start_soon(pending_call)
                await anyio.sleep(0.2)  # let the slow call reach the server first
                outcomes["crash"] = await conn.call_tool("crash", {"code": 3}, timeout=60)
            later = await conn.call_tool("greet", {"name": "B"}, timeout=60)

        for key in ("pending", "crash"):
            out = outcomes[key]
            assert out.result is None and out.error is None and not out.timed_out, key
            assert "connection closed" in (out.transport_error or ""), key
        assert later.transport_error == outcomes["crash"].transport_error
        assert "crashing on purpose" in conn.stderr_tail()
        assert "crashing on purpose" in (later.transport_error or "")


# -- the hand-rolled server: silent discover, JSON-RPC errors, malformed results ---------------

async def test_server_ignoring_discover_connects_without_the_sdk_10s_wait() -> None:
    # the SDK's own auto mode would wait 10 s for the dropped probe; 3 s would then time out
    spec = raw_server("serve", startup_timeout=3)
    async with open_conn(spec) as conn:
        assert conn.protocol_version == "2025-11-25"
        assert conn.server_name == "raw-legacy"
        out = await conn.call_tool("echo", {"text": "hi"}, 5)
        assert out.result == {"content": [{"type": "text", "text": "hi"}], "vendorField": 7}


async def test_discover_naming_only_old_versions_falls_back_to_the_handshake() -> None:
    async with open_conn(raw_server("olddiscover", startup_timeout=5)) as conn:
        assert conn.protocol_version == "2025-11-25"
        assert conn.server_name == "raw-legacy"


async def test_jsonrpc_error_and_malformed_result_are_data() -> None:
    async with open_conn(raw_server("serve")) as conn:
        err = await conn.call_tool("rpc_error", {}, 5)
        assert err.result is None and err.transport_error is None
        assert err.error == {"code": -32602, "message": "no such thing", "data": {"hint": "x"}}
        bad = await conn.call_tool("no_content", {}, 5)
        assert bad.result is None and bad.error is None
        assert (bad.transport_error or "").startswith("protocol: invalid tools/call result")
        ok = await conn.call_tool("echo", {"text": "still here"}, 5)  # session survives both
        assert text_of(ok.result) == "still here"


async def test_stdout_noise_ends_the_call_as_a_protocol_error_at_once() -> None:
    async with open_conn(raw_server("serve")) as conn:
        out = await conn.call_tool("garbage", {}, 30)
        assert out.timed_out is False
        assert out.transport_error == ("protocol: the server wrote invalid protocol output "
                                       "instead of an answer: 'INFO starting work on request'")
        assert text_of((await conn.call_tool("echo", {"text": "t"}, 5)).result) == "t"


async def test_server_without_tools_list_still_connects() -> None:
    async with open_conn(raw_server("notools")) as conn:
        assert conn.tools == []
        assert text_of((await conn.call_tool("echo", {"text": "t"}, 5)).result) == "t"


async def test_pinned_modern_mode_against_a_legacy_only_server() -> None:
    spec = raw_server("serve", protocol="2026-07-28", startup_timeout=1.5)
    expected = "not ready within 1.5s (startup_timeout) while waiting for the server/discover"
    with pytest.raises(ServerNotReadyError, match=re.escape(expected)):
        async with open_conn(spec):
            pass


# -- start-up failures -------------------------------------------------------------------------

async def test_command_not_found() -> None:
    spec = StdioServer(command=["mcptest-no-such-server-binary", "--stdio"])
    with pytest.raises(ServerNotReadyError) as info:
        async with open_conn(spec, name="ghost"):
            pass
    assert str(info.value) == (
        "command not found: mcptest-no-such-server-binary "
        "(not on the server's PATH)"
    )


async def test_server_exiting_at_start_shows_its_stderr() -> None:
    with pytest.raises(ServerNotReadyError) as info:
        async with open_conn(raw_server("exit"), name="quitter"):
            pass
    msg = str(info.value)
    assert msg.startswith("exited at start")
    assert "missing configuration file settings.toml" in msg
    assert "\n" not in msg


async def test_startup_timeout() -> None:
    spec = raw_server("mute", startup_timeout=1, protocol="legacy")
    expected = "not ready within 1s (startup_timeout) while waiting for the initialize answer"
    with pytest.raises(ServerNotReadyError, match="^" + re.escape(expected)):
        async with open_conn(spec):
            pass


async def test_unreachable_url() -> None:
    spec = RemoteServer(url=f"http://127.0.0.1:{free_port()}/mcp", startup_timeout=10)
    with pytest.raises(ServerNotReadyError, match=re.escape("cannot connect to http://127.0.0.1:")):
        async with open_conn(spec):
            pass


# -- Streamable HTTP and SSE -------------------------------------------------------------------

def http_spec(server: HttpServer, **fields: object) -> RemoteServer:
    return RemoteServer.model_validate({"url": server.url, **fields})


async def test_http_with_bearer_token(example_http: HttpServer) -> None:
    env = {"EXAMPLE_TOKEN": HTTP_TOKEN, "TRACE_ID": "trace-abc"}
    spec = http_spec(
        example_http,
        auth={"bearer_token_env": "EXAMPLE_TOKEN"},
        headers={"X-Trace": {"env": "TRACE_ID"}, "X-Plain": "literal"},
    )
    async with open_conn(spec, env) as conn:
        assert conn.transport == "streamable-http"
        assert conn.protocol_version == "2026-07-28"
        assert conn.server_name == "mcptest-example"
        assert conn.stderr_tail() == ""
        out = await conn.call_tool("forecast", {"city": "Lima"}, 10)
        assert out.result["structuredContent"]["city"] == "Lima"
        err = await conn.call_tool("divide", {"a": 1, "b": 0}, 10)
        assert err.result["isError"] is True
        slow = await conn.call_tool("slow", {"seconds": 30}, 0.3)
        assert slow.timed_out is True and slow.result is None
        after = await conn.call_tool("greet", {"name": "again"}, 10)
        assert text_of(after.result) == "Hello, again!"
        assert sorted(conn.secrets()) == sorted([HTTP_TOKEN, "trace-abc"])

    legacy = spec.model_copy(update={"protocol": "legacy"})  # handshake + Mcp-Session-Id
    async with open_conn(legacy, env) as conn:
        assert conn.protocol_version == "2025-11-25"
        assert text_of((await conn.call_tool("greet", {"name": "L"}, 10)).result) == "Hello, L!"


async def test_http_wrong_token_names_the_status(example_http: HttpServer) -> None:
    spec = http_spec(example_http, auth={"bearer_token_env": "EXAMPLE_TOKEN"})
    with pytest.raises(ServerNotReadyError) as info:
        async with open_conn(spec, {"EXAMPLE_TOKEN": "wrong-token"}):
            pass
    msg = str(info.value)
    assert "HTTP 401 Unauthorized" in msg and "WWW-Authenticate: Bearer" in msg
    assert "wrong-token" not in msg


async def test_http_without_token_is_401_too(example_http: HttpServer) -> None:
    with pytest.raises(ServerNotReadyError, match="HTTP 401"):
        async with open_conn(http_spec(example_http), {}):
            pass


async def test_http_missing_token_variable(example_http: HttpServer) -> None:
    spec = http_spec(example_http, auth={"bearer_token_env": "EXAMPLE_TOKEN"})
    with pytest.raises(ServerNotReadyError, match="EXAMPLE_TOKEN"):
        async with open_conn(spec, {}):
            pass


async def test_http_wrong_path_is_404(example_http: HttpServer) -> None:
    spec = RemoteServer.model_validate({
        "url": example_http.url.replace("/mcp", "/nope"),
        "auth": {"bearer_token_env": "T"},
    })
    with pytest.raises(ServerNotReadyError, match=re.escape("HTTP 404 Not Found from POST http://127.0.0.1")):
        async with open_conn(spec, {"T": HTTP_TOKEN}):
            pass


async def test_legacy_sse(example_sse: HttpServer) -> None:
    spec = http_spec(example_sse, transport="sse")
    async with open_conn(spec, {}) as conn:
        assert conn.transport == "sse"
        assert conn.protocol_version in {"2025-11-25", "2026-07-28"}
        out = await conn.call_tool("greet", {"name": "Sse"}, 10)
        assert text_of(out.result) == "Hello, Sse!"
        slow = await conn.call_tool("slow", {"seconds": 30}, 0.3)
        assert slow.timed_out


@pytest.mark.parametrize(
    ("sse", "cause"),
    [(False, "connection lost: RemoteProtocolError: Server disconnected"),
     (True, "connection closed: the server closed the connection")],
    ids=["streamable-http", "sse"],
)
async def test_http_server_dying_mid_run_ends_calls_not_the_caller(sse: bool, cause: str) -> None:
    # The SDK's HTTP transports raise from their own task group when the peer vanishes; that
    # must not cancel the code inside `async with` (it did before the owner task existed).
    reached_end = False
    with example_http_server(sse=sse) as server:
        spec = http_spec(server, transport="sse" if sse else "streamable-http")
        async with open_conn(spec, {}) as conn:
            assert text_of((await conn.call_tool("greet", {"name": "H"}, 10)).result) == "Hello, H!"
            with anyio.fail_after(20):
                crash = await conn.call_tool("crash", {}, timeout=15)
                later = await conn.call_tool("greet", {"name": "H"}, timeout=15)
            reached_end = True
    assert reached_end
    assert crash.result is None and not crash.timed_out
    assert (crash.transport_error or "").startswith(cause)
    assert later.transport_error == crash.transport_error


async def test_http_read_timeout_is_named(example_http: HttpServer) -> None:
    spec = http_spec(example_http, auth={"bearer_token_env": "T"}, http={"timeout": 1})
    async with open_conn(spec, {"T": HTTP_TOKEN}) as conn:
        with anyio.fail_after(20):
            out = await conn.call_tool("slow", {"seconds": 3}, timeout=10)
    assert out.transport_error == "connection lost: no HTTP response data within 1s (http.timeout)"


# -- third-party servers, both protocol eras ---------------------------------------------------

async def test_server_everything_2025_era(everything: StdioServer) -> None:
    async with open_conn(everything) as conn:
        assert conn.protocol_version == "2025-11-25"
        names = {t["name"] for t in conn.tools}
        assert {"echo", "get-sum"} <= names
        out = await conn.call_tool("get-sum", {"a": 2, "b": 3}, 10)
        assert out.result == {"content": [{"type": "text", "text": "The sum of 2 and 3 is 5."}]}
        bad = await conn.call_tool("get-sum", {"a": "two"}, 10)
        assert bad.result["isError"] is True
        assert "-32602" in text_of(bad.result)
        slow = await conn.call_tool(
            "trigger-long-running-operation", {"duration": 10, "steps": 5}, 0.5)
        assert slow.timed_out and slow.result is None
        again = await conn.call_tool("echo", {"message": "still here"}, 10)
        assert "still here" in text_of(again.result)


async def test_mcp_server_time_2026_era(time_server: StdioServer) -> None:
    async with open_conn(time_server) as conn:
        assert conn.protocol_version == "2026-07-28"
        assert conn.server_name == "mcp-time"
        out = await conn.call_tool(
            "convert_time",
            {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
            10,
        )
        target = out.result["structuredContent"]["target"]
        assert target["timezone"] == "Asia/Tokyo"
        assert target["datetime"].endswith("T21:00:00+09:00")
