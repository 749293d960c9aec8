"""The CLI as the Action's child process, and the JSON report it leaves behind.

The CLI runs with its stderr folded into its stdout, and everything it prints (server and model
text included) is copied to the log inside a stop-commands block (docs/action.md, "What the log
shows"). The GitHub token input never reaches it.
"""

from __future__ import annotations

import codecs
import signal
import subprocess
import threading
from contextlib import contextmanager
from io import BufferedReader
from typing import TYPE_CHECKING, TextIO, cast

from mcptest.action.commands import command, stop_commands
from mcptest.cli.output import write_whole
from mcptest.errors import ReportError
from mcptest.report.io import read_report
from mcptest.run.signal_latch import block_stops, restore_mask

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from pathlib import Path

    from mcptest.report.models import Report

_WITHHELD_FROM_CLI = ("INPUT_GITHUB-TOKEN",)


def run_cli(cli: Sequence[str], argv: list[str], workdir: Path, env: Mapping[str, str],
            out: TextIO, keep: list[str] | None = None) -> int:
    """Run the CLI, copying its merged output to `out` inside a stop-commands block (and to
    `keep`, when given, for a caller that quotes the CLI's error). The CLI starts with SIGTERM
    and SIGINT blocked (mcptest's `main()` unblocks them): a `cli` that is not mcptest's must
    unblock them itself to be stopped by the signals passed on to it."""
    child_env = {k: v for k, v in env.items() if k not in _WITHHELD_FROM_CLI}
    with stop_commands(out), _forwarding_signals() as child:
        # blocked across the start, the CLI's process inherits them blocked: one that comes
        # now waits in it until its latch holds it (`run/signal_latch.py` `block_stops`)
        blocked = block_stops()
        try:
            process = subprocess.Popen(
                [*cli, *argv], cwd=workdir, env=child_env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                process_group=0,  # a terminal's Ctrl-C reaches it once: forwarded, not twice
            )
            child.started(process)
        finally:
            restore_mask(blocked)
        code = _copy_output(process, out, keep)
    return 128 - code if code < 0 else code


class _Child:
    """Where the Action's SIGTERM/SIGINT go: to the CLI once it runs, held until then."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.early: list[int] = []

    def deliver(self, signum: int, _frame: object) -> None:
        if self.process is None:
            self.early.append(signum)
        else:
            self.process.send_signal(signum)

    def started(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        for signum in self.early:
            process.send_signal(signum)


@contextmanager
def _forwarding_signals() -> Iterator[_Child]:
    """SIGTERM/SIGINT to the Action (a cancelled job: the container's first process) go on to
    the CLI, which stops and still writes its reports; the Action then reads them as usual.
    Only the main thread can set handlers: elsewhere the signals stay as they were."""
    child = _Child()
    if threading.current_thread() is not threading.main_thread():
        yield child
        return
    before = {sig: signal.signal(sig, child.deliver) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield child
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _copy_output(process: subprocess.Popen[bytes], out: TextIO, keep: list[str] | None) -> int:
    """The CLI's output to `out` (and `keep`) as it comes; its exit status."""
    assert process.stdout is not None
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    stdout = cast(BufferedReader, process.stdout)  # PIPE in binary mode
    for chunk in iter(lambda: stdout.read1(65536), b""):
        text = decoder.decode(chunk)  # a character split across reads stays whole
        write_whole(text, out)  # a forwarded signal must not cut the log short
        if keep is not None:
            keep.append(text)
    write_whole(decoder.decode(b"", final=True), out)
    return process.wait()


def load_report(path: Path, out: TextIO) -> Report | None:
    """The report the CLI wrote, or None (with a warning when it is there but unreadable)."""
    if not path.is_file():
        return None
    try:
        return read_report(path)
    except ReportError as error:
        out.write(command("warning", f"could not read the JSON report {path}: "
                                     f"{type(error).__name__}") + "\n")
        return None
