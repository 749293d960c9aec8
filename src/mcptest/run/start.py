"""Servers mcptest starts for the tests (`start:` of a remote server, docs/suites.md): refuse a
port someone else already listens on, spawn the process, wait until it is ready and the one
listening, and stop everything it made when the connection closes, whether the run ended,
failed or was cancelled by SIGTERM.

On Linux the command runs under `run/reaper.py`, a child subreaper: every process the command
makes stays below it, daemons that called setsid() included, and the reaper stops them all. On
other systems the command runs in a process group of its own and the group is stopped (a
process that leaves the group escapes; docs/suites.md says so).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from contextlib import AsyncExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import httpx2

from mcptest.errors import ServerNotReadyError
from mcptest.run.connect import one_line
from mcptest.run.listeners import CAN_INSPECT
from mcptest.run.reaper import KILL_WAIT_S
from mcptest.run.start_ports import Endpoint, local_endpoints, not_owned, taken
from mcptest.run.stdio_spawn import plan_stdio
from mcptest.suite.models import ReadyCheck, RemoteServer, StartSpec, StdioServer

if TYPE_CHECKING:
    from collections.abc import Mapping

    from anyio.abc import Process

    from mcptest.run.stderr_log import StderrLog

POLL_S = 0.1  # readiness of another process cannot be awaited, only polled
STOP_GRACE_S = 5.0
REAPER = Path(__file__).with_name("reaper.py")


@dataclass
class _Waiting:
    """What the last readiness poll saw, for the timeout's message."""

    problem: str | None = None


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
    ready = start.ready or ReadyCheck(url=spec.url)
    points = await local_endpoints(spec.url, ready)
    refused = await taken(points)
    if refused is not None:
        raise ServerNotReadyError(refused)
    argv = [plan.command, *plan.args]
    if CAN_INSPECT:
        argv = [sys.executable, "-I", "-S", str(REAPER), str(os.getpid()), f"{STOP_GRACE_S:g}",
                "--", *argv]
    proc = await anyio.open_process(
        argv, stdin=subprocess.DEVNULL, stdout=log.file, stderr=log.file, cwd=plan.cwd,
        env=plan.env, start_new_session=True,
    )
    stack.push_async_callback(stop_started, proc)
    waiting = _Waiting()
    with anyio.move_on_after(start.timeout) as scope:
        await _wait_ready(proc, ready, log, points, waiting)
    if scope.cancelled_caught:
        seen = f"; {waiting.problem}" if waiting.problem else ""
        raise ServerNotReadyError(one_line(
            f"the started process was not ready within {start.timeout:g}s (start.timeout; "
            f"waiting for {_describe(ready)}){seen}{_output(log)}", 500))
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


async def _wait_ready(proc: Process, ready: ReadyCheck, log: StderrLog, points: list[Endpoint],
                      waiting: _Waiting) -> None:
    """Poll until the started tree owns every local endpoint and the ready check passes; no
    probe goes out before the first holds."""
    pattern = re.compile(ready.log_regex, re.MULTILINE) if ready.log_regex is not None else None
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(2.0)) as client:
        while True:
            if proc.returncode is not None:
                raise ServerNotReadyError(one_line(
                    f"the started process exited with code {proc.returncode} before it was "
                    f"ready{_output(log)}", 500))
            waiting.problem = await not_owned(points, proc.pid)
            if waiting.problem is None and await _is_ready(ready, pattern, client, log):
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
    try:  # the status is all we want: the body is never read
        async with client.stream("GET", str(ready.url)) as response:
            return response.status_code < 500
    except httpx2.HTTPError:
        return False


async def stop_started(proc: Process) -> None:
    """Stop what the start command made: SIGTERM to the reaper, which stops the tree (Linux), or
    to the process group; SIGKILL to the group for what is left after the grace period."""
    with anyio.CancelScope(shield=True):
        if CAN_INSPECT:
            with suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGTERM)
            with anyio.move_on_after(STOP_GRACE_S + KILL_WAIT_S + 1.0):
                await proc.wait()
                return
            _signal_group(proc.pid, signal.SIGKILL)  # the reaper itself is stuck
            with anyio.move_on_after(STOP_GRACE_S):
                await proc.wait()
            return
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
