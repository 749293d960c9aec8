"""Peak memory of one mcptest process, as the process itself saw it.

`wait4`'s `ru_maxrss` is no use here: Linux carries the high-water mark across exec, so a child
forked from a large pytest process reports the parent's pages (760 MiB seen in a full run). The
child instead reads its own VmHWM on the way out (an exit handler: the CLI ends its process
with `os._exit` once the handlers ran), and writes it to a file.
"""

from __future__ import annotations

import sys
from pathlib import Path

_MEASURED = """
import atexit, runpy, sys

out = sys.argv.pop(1)
sys.argv[0] = "mcptest"


def write_peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(out, "w") as f:
        f.write(peak)


atexit.register(write_peak)  # the CLI ends with os._exit once its exit handlers ran
runpy.run_module("mcptest", run_name="__main__", alter_sys=True)
"""


def measured_mcptest(peak_file: Path, *args: str) -> list[str]:
    """argv running `mcptest ARGS…` that leaves its peak RSS (KiB) in `peak_file`."""
    return [sys.executable, "-c", _MEASURED, str(peak_file), *args]


def peak_mib(peak_file: Path) -> float:
    """The peak RSS the measured process wrote, in MiB (0.0 when it wrote none)."""
    return int(peak_file.read_text()) / 1024 if peak_file.exists() else 0.0
