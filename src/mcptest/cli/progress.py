"""Live progress of `run` and `eval` on stderr (docs/reports.md, "Live progress").

A terminal gets one line redrawn in place (done/total, failures so far, judge spend against the
cap, elapsed); anything else (CI logs, the Action, a pipe) gets one line per test as it
finishes; `--quiet` prints nothing but the report and errors. `--verbose` asks for the per-test
lines on a terminal too. The run's own lines (header, server errors, signals) come through
`log`, so they never land in the middle of the redrawn line.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from typing import TYPE_CHECKING, Literal, TextIO

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Mapping

    from mcptest.plan import Plan
    from mcptest.report.models import TestResult

Mode = Literal["line", "lines", "quiet"]
_CLEAR = "\r\x1b[2K"
_BAD = frozenset({"failed", "error"})
TICK_S = 1.0  # the terminal line's elapsed time moves even while one slow test runs


def choose_mode(args: argparse.Namespace, stream: TextIO | None, env: Mapping[str, str]
                ) -> Mode:
    if getattr(args, "quiet", False) or stream is None:  # stderr closed (`2>&-`)
        return "quiet"
    if getattr(args, "verbose", False) or env.get("TERM") == "dumb":
        return "lines"
    return "line" if stream.isatty() else "lines"


class Progress:
    """The `progress` and `log` callbacks of a run (`pipeline.RunOptions`)."""

    def __init__(self, total: int, mode: Mode, *, stream: TextIO | None = None,
                 judged: bool = False, cap: float | None = None,
                 clock: Callable[[], float] = time.monotonic, tick_s: float = TICK_S) -> None:
        self.total, self.mode, self.clock = total, mode, clock
        self.stream: TextIO | None = stream if stream is not None else sys.stderr  # as it is
        # now, not at import; None once it cannot be written (closed, its reader gone, a full
        # disk): the run and its reports go on without their log
        self.judged, self.cap, self.tick_s = judged, cap, tick_s
        self.done = self.failed = 0
        self.spent = 0.0
        self.started = clock()
        self._drawn = False
        self._last = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def log(self, line: str) -> None:
        """A line of the run's own; the header starts the ticker. `--quiet` keeps errors only."""
        if self.mode == "quiet":
            if not line.startswith("mcptest:"):
                self._write(line + "\n")
            return
        with self._lock:
            self._write((_CLEAR if self._drawn else "") + line + "\n")
            if self._drawn:
                self._draw()
        if self.mode == "line" and self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="mcptest-progress",
                                            daemon=True)
            self._ticker.start()

    def __call__(self, result: TestResult) -> None:
        with self._lock:
            self.done += 1
            self.failed += result.status in _BAD
            self.spent += result.cost_usd
            if self.mode == "lines":
                width = len(str(self.total))
                self._write(f"mcptest: [{self.done:>{width}}/{self.total}] {result.status:<8} "
                            f"{_one_line(result.name)} ({result.duration_ms:.0f} ms)\n")
            elif self.mode == "line":
                self._last = _one_line(result.name)
                self._draw()

    def status_line(self, last: str = "") -> str:
        parts = [f"mcptest: {self.done}/{self.total} done", f"{self.failed} failed"]
        if self.judged:
            parts.append(f"${self.spent:.4f}"
                         + (f" of ${self.cap:.2f}" if self.cap is not None else " spent"))
        parts.append(f"{self.clock() - self.started:.1f} s")
        line = " · ".join(parts)
        return f"{line} · {last}" if last else line

    def close(self) -> None:
        """Stop redrawing and end the line, so the report starts on a line of its own."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self._drawn:
                self._write(_CLEAR + self.status_line() + "\n")
                self._drawn = False

    def _tick(self) -> None:
        while not self._stop.wait(self.tick_s):
            with self._lock:
                if not self._stop.is_set():
                    self._draw()

    def _draw(self) -> None:
        self._write(_CLEAR + self._fit(self.status_line(self._last)))
        self._drawn = True

    def _fit(self, line: str) -> str:
        width = shutil.get_terminal_size((100, 24)).columns
        return line if len(line) < width else line[: max(width - 2, 10)] + "…"

    def _write(self, text: str) -> None:
        if self.stream is None:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.stream = None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def progress_for(args: argparse.Namespace, plan: Plan, runs: int | None = None) -> Progress:
    """The display `run`/`eval` use, chosen from the flags and whether stderr is a terminal;
    `runs` counts every repetition (default: each test once)."""
    return Progress(len(plan.tests) if runs is None else runs,
                    choose_mode(args, sys.stderr, os.environ),
                    judged=plan.needs_judge, cap=args.max_cost)
