"""Servers mcptest starts for the tests (`start:` of a remote server, docs/suites.md): spawn the
process in a process group of its own, wait until it is ready, and stop the whole group when the
connection closes, whether the run ended, failed or was cancelled by SIGTERM.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Mapping
from contextlib import AsyncExitStack, suppress
from pathlib import Path

import anyio
import httpx2
from anyio.abc import Process

from mcptest.errors import ServerNotReadyError
from mcptest.run.connect import StderrLog, one_line, plan_stdio
from mcptest.suite.models import ReadyCheck, RemoteServer, StartSpec, StdioServer

POLL_S = 0.1  # readiness of another process cannot be awaited, only polled
STOP_GRACE_S = 5.0


async def start_server(
    stack: AsyncExitStack, name: str, spec: RemoteServer, base_dir: Path,
    env: Mapping[str, str], log: StderrLog,
) -> list[str]:
    """Start `spec.start`, register its stop on `stack`, return once ready; returns the secrets
    of its environment. Its stdout and stderr both go to `log`."""
    start = spec.start
    assert start is not None
    as_stdio = StdioServer.model_construct(
        command=start.command, env=start.env, inherit_env=start.inherit_env, cwd=start.cwd)
    plan = plan_stdio(f"{name}.start", as_stdio, base_dir, env)
    proc = await anyio.open_process(
        [plan.params.command, *plan.params.args], stdin=subprocess.DEVNULL, stdout=log.file,
        stderr=log.file, cwd=plan.params.cwd, env=plan.params.env, start_new_session=True,
    )
    stack.push_async_callback(stop_group, proc)
    ready = start.ready or ReadyCheck(url=spec.url)
    with anyio.move_on_after(start.timeout) as scope:
        await _wait_ready(proc, ready, log)
    if scope.cancelled_caught:
        raise ServerNotReadyError(one_line(
            f"the started process was not ready within {start.timeout:g}s (start.timeout; "
            f"waiting for {_describe(ready)}){_output(log)}", 500))
    return plan.secrets


def _describe(ready: ReadyCheck) -> str:
    if ready.url is not None:
        return f"{ready.url} to answer"
    if ready.tcp is not None:
        return f"{ready.tcp} to accept connections"
    return f"output matching {ready.log_regex!r}"


def _output(log: StderrLog) -> str:
    lines = [ln.strip() for ln in log.tail(4000).splitlines() if ln.strip()]
    return f"; output: {' | '.join(lines[-3:])}" if lines else ""


async def _wait_ready(proc: Process, ready: ReadyCheck, log: StderrLog) -> None:
    pattern = re.compile(ready.log_regex, re.MULTILINE) if ready.log_regex is not None else None
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(2.0)) as client:
        while True:
            if proc.returncode is not None:
                raise ServerNotReadyError(one_line(
                    f"the started process exited with code {proc.returncode} before it was "
                    f"ready{_output(log)}", 500))
            if await _is_ready(ready, pattern, client, log):
                return
            await anyio.sleep(POLL_S)


async def _is_ready(
    ready: ReadyCheck, pattern: re.Pattern[str] | None, client: httpx2.AsyncClient,
    log: StderrLog,
) -> bool:
    if pattern is not None:
        return pattern.search(log.tail(1_000_000)) is not None
    if ready.tcp is not None:
        host, _, port = ready.tcp.rpartition(":")
        try:
            stream = await anyio.connect_tcp(host, int(port))
        except OSError:
            return False
        await stream.aclose()
        return True
    try:
        response = await client.get(str(ready.url))
    except httpx2.HTTPError:
        return False
    return response.status_code < 500


async def stop_group(proc: Process) -> None:
    """SIGTERM to the process group, SIGKILL to what is left after the grace period."""
    with anyio.CancelScope(shield=True):
        _signal_group(proc.pid, signal.SIGTERM)
        with anyio.move_on_after(STOP_GRACE_S):
            while proc.returncode is None or _group_alive(proc.pid):
                await anyio.sleep(0.05)
            return
        _signal_group(proc.pid, signal.SIGKILL)
        with anyio.move_on_after(STOP_GRACE_S):
            await proc.wait()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start_budget(spec: StartSpec | None) -> float:
    """Extra seconds a connection may take when mcptest starts the server first."""
    return spec.timeout if spec is not None else 0.0
