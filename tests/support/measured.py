"""A process run under resource limits, with what it used (tests that bound hostile input).

    r = measured([sys.executable, "-m", "mcptest", "report", path], cwd=tmp)
    assert r.code == 2 and r.peak_mib < 300

The command runs as the child of a small wrapper process, under `RLIMIT_CPU` (a process past
`cpu_s` seconds of CPU is killed by SIGXCPU: a bound, not a timing assertion), and the wrapper
takes the child's peak RSS and CPU time from `wait4`, which count the child's own children (the
Action entrypoint runs the CLI as one); the wrapper is small, so the pages the child had from
the fork do not count. A wall-clock timeout kills the whole process group: it is a hang guard
(a blocked FIFO read uses no CPU), far above any honest run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HANG_GUARD_S = 180
_WRAPPER = r"""
import json, os, resource, subprocess, sys
out, cpu = sys.argv[1], int(sys.argv[2])

def limit():
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))

child = subprocess.Popen(sys.argv[3:], preexec_fn=limit)
_, status, usage = os.wait4(child.pid, 0)
with open(out, "w") as f:
    json.dump({"peak_kib": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime,
               "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0}, f)
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


@dataclass(frozen=True)
class Measured:
    code: int
    stdout: str
    stderr: str
    peak_mib: float
    cpu_s: float
    signal: int
    """The signal that ended it (SIGXCPU: it ran past its CPU bound), or 0."""

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def measured(argv: list[str], *, cwd: Path, env: dict[str, str] | None = None,
             cpu_s: int = 10) -> Measured:
    """Run `argv` to its end under `cpu_s` seconds of CPU; its exit code, output and use."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "usage.json"
        process = subprocess.Popen(
            [sys.executable, "-c", _WRAPPER, str(out), str(cpu_s), *argv], cwd=cwd, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        try:
            stdout, stderr = process.communicate(timeout=HANG_GUARD_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"hung: {argv} (killed after {HANG_GUARD_S} s)") from None
        usage = json.loads(out.read_text()) if out.exists() else {}
    return Measured(process.returncode, stdout, stderr, usage.get("peak_kib", 0) / 1024,
                    usage.get("cpu_s", 0.0), usage.get("signal", 0))
