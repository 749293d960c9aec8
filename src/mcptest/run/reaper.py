"""The process between mcptest and a `start:` command on Linux: it finds and stops every process
the command makes, daemons that called setsid() included (docs/suites.md, "Servers mcptest
starts").

    python -I -S reaper.py PARENT_PID GRACE_S -- COMMAND [ARG ...]

It marks itself a child subreaper (`PR_SET_CHILD_SUBREAPER`): an orphan anywhere in the tree
below it is re-parented to it instead of to init, so "every process the command made" is always
"every descendant of this pid" in /proc, whatever sessions or process groups they moved to. It
runs the command as its child and waits. When the command exits, when it gets SIGTERM (mcptest
stops the server) or when mcptest dies (`PR_SET_PDEATHSIG`), it sends SIGTERM to every
descendant, SIGKILL after GRACE_S to what is left, reaps them all, and exits with the command's
exit status (128 + N for signal N).

A process can only leave the tree by asking something outside it to start it (a service
manager, a container engine). Standard library only, started with `-I -S`: it must start in
milliseconds and see none of the user's site-packages. mcptest.run.listeners imports
`descendants` from here, so the tree has one definition.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.02
KILL_WAIT_S = 2.0
"""After SIGKILL, how long to wait for the kernel (a process in uninterruptible sleep)."""


class _Stop(Exception):
    """SIGTERM or SIGINT arrived: stop the tree."""


def _stop(_signum: int, _frame: object) -> None:
    raise _Stop


def _parents() -> dict[int, list[int]]:
    """Every live process by its parent's pid, from /proc (zombies left out)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if fields[0] in (b"Z", b"X"):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    return children


def descendants(root: int) -> list[int]:
    """The live processes below `root` (children, their children, …)."""
    children = _parents()
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _reap() -> None:
    """Collect every exited child (the command's orphans become ours)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _signal(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def stop_tree(grace: float) -> None:
    """SIGTERM to every descendant (also to those that appear meanwhile), SIGKILL after
    `grace` seconds, until none is left."""
    me = os.getpid()
    told: set[int] = set()
    kill_at = time.monotonic() + grace
    give_up = kill_at + KILL_WAIT_S
    while (now := time.monotonic()) < give_up:
        _reap()
        alive = descendants(me)
        if not alive:
            return
        if now < kill_at:
            _signal([p for p in alive if p not in told], signal.SIGTERM)
            told.update(alive)
        else:
            _signal(alive, signal.SIGKILL)
        time.sleep(POLL_S)


def _exit_code(status: int | None) -> int:
    if status is None:
        return 128 + signal.SIGTERM
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print("usage: reaper.py PARENT_PID GRACE_S -- COMMAND [ARG ...]", file=sys.stderr)
        return 2
    parent, grace, command = int(argv[1]), float(argv[2]), argv[4:]
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() != parent:
        return 128 + signal.SIGTERM  # mcptest died before the death signal was set
    status: int | None = None
    try:
        try:
            child = os.posix_spawnp(command[0], command, os.environ)
        except OSError as e:
            print(f"mcptest: cannot start {command[0]}: {e.strerror or e}", file=sys.stderr)
            return 127
        while status is None:
            try:
                pid, got = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == child:
                status = got
    except _Stop:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # stopping already; a second one changes nothing
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stop_tree(grace)
    return _exit_code(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
