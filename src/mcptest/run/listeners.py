"""Who listens on a TCP port, from /proc on Linux: the check that the process mcptest started
is the one a request will reach (docs/suites.md, "Servers mcptest starts").

A listening socket is a line in state `0A` of /proc/net/tcp or /proc/net/tcp6 with its inode;
the process holding it has a `socket:[inode]` link in /proc/PID/fd. A port counts as the started
server's when something listens on it and every listener is held by the started process tree
(`run/reaper.py`: the reaper and its descendants). Any listener on the port counts, whatever
address it is bound to: the check errs towards refusing.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from mcptest.run.reaper import descendants

LISTEN = "0A"
TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
CAN_INSPECT = sys.platform == "linux" and os.path.exists(TABLES[0])
"""Elsewhere there is no /proc: start.py falls back to a connect test (documented limits)."""


def listening_inodes(port: int) -> set[int]:
    """Inodes of the sockets listening on `port` in this network namespace."""
    found: set[int] = set()
    for table in TABLES:
        try:
            with open(table, encoding="ascii") as f:
                lines = f.readlines()[1:]
        except OSError:
            continue  # no IPv6 in this kernel
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != LISTEN:
                continue
            if int(fields[1].rpartition(":")[2], 16) == port:
                found.add(int(fields[9]))
    return found


def socket_inodes(pid: int) -> set[int]:
    """Inodes of the sockets process `pid` holds (empty when it is gone or not ours to see)."""
    found: set[int] = set()
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for name in names:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if link.startswith("socket:["):
            found.add(int(link[8:-1]))
    return found


def describe_pid(pid: int) -> str:
    """`pid 123 (python3 squatter.py)`, the command line cut to 80 characters."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        argv = ""
    argv = " ".join(argv.split())
    argv = argv if len(argv) <= 80 else argv[:79] + "…"
    return f"pid {pid} ({argv})" if argv else f"pid {pid}"


def holders(inodes: set[int]) -> list[int]:
    """The processes holding any of `inodes`, as far as /proc lets us see."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and socket_inodes(int(name)) & inodes:
            out.append(int(name))
    return out


@dataclass(frozen=True)
class PortState:
    """Who listens on one port, seen from the started tree."""

    listening: bool
    foreign: str | None
    """A listener outside the tree, described (`pid 12 (…)`, or `a process mcptest cannot
    inspect` when /proc does not show its holder); None when every listener is ours."""


def port_state(port: int, root: int | None) -> PortState:
    """Listeners on `port`, and whether each is held by `root` or a descendant (no `root`: before
    anything started, every listener is foreign)."""
    inodes = listening_inodes(port)
    if not inodes:
        return PortState(listening=False, foreign=None)
    ours: set[int] = set()
    if root is not None:
        for pid in (root, *descendants(root)):
            ours |= socket_inodes(pid)
    other = inodes - ours
    if not other:
        return PortState(listening=True, foreign=None)
    found = [pid for pid in holders(other) if root is None or pid != root]
    who = describe_pid(found[0]) if found else "a process mcptest cannot inspect"
    return PortState(listening=True, foreign=who)
