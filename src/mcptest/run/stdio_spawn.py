"""A stdio server's process without the MCP SDK: its argv, cwd and environment resolved ahead of
time (`plan_stdio`), and its spawn (`spawn`).

Nothing here imports the SDK, so a run can start its first stdio servers' processes before it
imports the SDK's client (~0.45 s of CPU): each server starts up on the other core while it
does (`early_servers`, docs/architecture.md, "Costs"). A process started early is handed to its
connection, which then owns it as if it had spawned it (`run/bounded_stdio.py`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import anyio

from mcptest.errors import ServerNotReadyError
from mcptest.run.stderr_log import StderrLog
from mcptest.suite.models import EnvRef, StdioServer

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from anyio.abc import Process

# What a stdio child always inherits (the MCP SDK's POSIX allow-list), before `inherit_env`.
BASE_ENV_NAMES: tuple[str, ...] = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
STOP_GRACE_S = 2.0
"""How long a discarded early process has to end after SIGTERM before SIGKILL."""
# `{env: NAME}` values of a stdio child's environment count as secrets from this length on;
# shorter ones ("1", "UTC") would only shred reports when redacted.
STDIO_SECRET_MIN_LEN = 8


def resolve_value(value: str | EnvRef, env: Mapping[str, str], where: str) -> str:
    """A literal, or the value of `{env: NAME}`; a missing variable is a startup failure."""
    if isinstance(value, str):
        return value
    if value.env not in env:
        raise ServerNotReadyError(f"environment variable {value.env} (for {where}) is not set")
    return env[value.env]


@dataclass(frozen=True)
class StdioPlan:
    """Everything needed to spawn a stdio server, resolved ahead of time."""

    command: str
    args: list[str]
    env: dict[str, str]
    cwd: Path | None
    secrets: list[str]


def plan_stdio(name: str, spec: StdioServer, base_dir: Path, env: Mapping[str, str]) -> StdioPlan:
    """Resolve argv, cwd and the child's environment, failing early with a clear cause."""
    child: dict[str, str] = {k: env[k] for k in BASE_ENV_NAMES if k in env}
    if spec.inherit_env is True:
        child.update({k: v for k, v in env.items() if isinstance(v, str)})
    elif isinstance(spec.inherit_env, list):
        child.update({k: env[k] for k in spec.inherit_env if k in env})
    secrets: list[str] = []
    for key, value in spec.env.items():
        child[key] = resolve_value(value, env, f"servers.{name}.env.{key}")
        if isinstance(value, EnvRef) and len(child[key]) >= STDIO_SECRET_MIN_LEN:
            secrets.append(child[key])

    cwd = None
    if spec.cwd is not None:
        cwd = Path(spec.cwd) if Path(spec.cwd).is_absolute() else base_dir / spec.cwd
        if not cwd.is_dir():
            raise ServerNotReadyError(f"working directory {cwd} does not exist")
    command, *args = spec.command
    if os.sep not in command:
        found = shutil.which(command, path=child.get("PATH", os.defpath))
        if found is None:
            raise ServerNotReadyError(f"command not found: {command} (not on the server's PATH)")
    else:
        exe = Path(command) if Path(command).is_absolute() else (cwd or Path.cwd()) / command
        if not exe.exists():
            raise ServerNotReadyError(f"command not found: {command}")
        if not os.access(exe, os.X_OK):
            raise ServerNotReadyError(f"command is not executable: {command}")
    return StdioPlan(command=command, args=args, env=child, cwd=cwd, secrets=secrets)


def inherited_environment() -> dict[str, str]:
    """What the SDK's `get_default_environment` gives every stdio child on POSIX: the allow-list's
    variables of this process, shell functions left out (`tests/run/test_stdio_spawn.py` holds
    the two equal)."""
    return {k: v for k in BASE_ENV_NAMES
            if (v := os.environ.get(k)) is not None and not v.startswith("()")}


async def spawn(plan: StdioPlan, errlog: IO[Any] | int) -> Process:
    """The server's process in a process group of its own (its children end with it), stderr
    to `errlog` (a file, or `subprocess.DEVNULL`), stdin and stdout piped: every stdio server
    mcptest starts, the suite's and lint's own second one, starts here."""
    return await anyio.open_process(
        [plan.command, *plan.args], env=inherited_environment() | plan.env, stderr=errlog,
        cwd=plan.cwd, start_new_session=True)


@dataclass
class EarlyServer:
    """A server process started before its connection: the connection adopts it (`adopted`),
    or the run ends it (`discard`)."""

    plan: StdioPlan
    stderr: StderrLog
    process: Process
    adopted: bool = False

    async def discard(self) -> None:
        """End a process no connection took (the run stopped first): its process group, as a
        connection's close ends it (SIGTERM, then SIGKILL after `STOP_GRACE_S`)."""
        if self.adopted:
            return
        self.adopted = True
        with anyio.CancelScope(shield=True):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, sig)
                if await exited(self.process, STOP_GRACE_S):
                    break
            await self.process.aclose()
        self.stderr.close()


async def exited(process: Process, timeout: float) -> bool:
    """Whether the process is gone within `timeout` (polled: `wait()` also waits for pipes)."""
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(0.01)
    return process.returncode is not None


async def early_servers(servers: Iterable[tuple[tuple[str, str], StdioServer, Path]],
                        env: Mapping[str, str]) -> dict[tuple[str, str], EarlyServer]:
    """Spawn these stdio servers now. One whose plan or spawn fails is left out: its connection
    spawns it again and reports the failure as it always has. Not on Windows, where the SDK's own
    transport spawns."""
    started: dict[tuple[str, str], EarlyServer] = {}
    if sys.platform == "win32":
        return started
    try:
        for key, spec, base_dir in servers:
            try:
                plan = plan_stdio(key[1], spec, base_dir, env)
            except Exception:  # its connection meets it again and says what it is
                continue
            log = StderrLog()
            try:
                process = await spawn(plan, log.file)
            except Exception:  # OSError, or a NUL byte or `=` where none may be
                log.close()
                continue
            started[key] = EarlyServer(plan, log, process)
    except BaseException:  # cancelled while spawning: none of them will be adopted
        for server in started.values():
            await server.discard()
        raise
    return started
