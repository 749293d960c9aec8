"""Writing reports: redact once, render each requested format, write files or stdout."""

from __future__ import annotations

import codecs
import os
import select
import sys
from typing import TYPE_CHECKING, TextIO

from mcptest.cli.error_handler import quiet_stdout
from mcptest.cli.output_paths import not_written, write_atomically
from mcptest.errors import OutputNotWritten
from mcptest.reporters import RenderOptions, get_reporter

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from mcptest.report.models import Report


def render_report(report: Report, fmt: str, *, to_terminal: bool = False) -> str:
    """One format through the one `Reporter` signature; colour only on a terminal that allows
    it (no `NO_COLOR`), and only the formats that draw it read it."""
    color = (to_terminal and sys.stdout is not None and sys.stdout.isatty()
             and "NO_COLOR" not in os.environ)
    return get_reporter(fmt)(report, RenderOptions(color=color))


def write_reports(
    report: Report, outputs: list[tuple[str, Path | None]], *, secrets: Iterable[str] = ()
) -> None:
    """Every reporter sees the redacted report only; a failing write never stops the others.

    Files are written atomically (`write_atomically`); the writes that failed are raised
    together once every other report is out (`OutputNotWritten`: exit 74, docs/reports.md).
    """
    from mcptest.report.redact import redact_report

    clean = redact_report(report, secrets)
    failed: list[str] = []
    for fmt, path in outputs:
        try:
            _write(render_report(clean, fmt, to_terminal=path is None), path)
        except OSError as e:
            failed.append(not_written(f"{fmt} report", "stdout" if path is None else path, e))
    if failed:
        raise OutputNotWritten("\n".join(failed))


def _write(text: str, path: Path | None) -> None:
    """One report out; its text ends with this call, so a big report (10,000 rows) is never
    held while the next one renders (docs/reports.md, "Scale")."""
    if not text.endswith("\n"):
        text += "\n"
    if path is None:
        to_stdout(text)
    else:
        write_atomically(path, text)


def to_stdout(text: str) -> None:
    """`text` on stdout, whole (`write_whole`). A reader that stopped reading (`| head`) ends
    the output quietly: what it did not read is not an error of the run's."""
    if sys.stdout is None:  # started with stdout closed: nowhere to write
        return
    try:
        write_whole(text, sys.stdout)
    except BrokenPipeError:
        quiet_stdout()


def write_whole(text: str, out: TextIO) -> None:
    """`text` on `out`, whole. A signal that comes while a pipe is full cuts a write short,
    which the bytes' stream says (`write` returns the count) and Python 3.11's text stream
    above it does not: a SIGTERM that `mcptest run` holds while its JSON report goes to a pipe
    left the report cut at 64 KiB (tests/cli/test_signal_stops.py). So the bytes are written
    until all are out. Streams without bytes below them (a caller's capture), Windows' (which
    translate newlines) and encodings that start with a BOM are written as text."""
    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None) or "utf-8"
    if buffer is None or os.name != "posix" or codecs.lookup(encoding).name in _BOM_FIRST:
        out.write(text)
        out.flush()
        return
    out.flush()
    data = memoryview(text.encode(encoding, getattr(out, "errors", None) or "strict"))
    while data:
        try:
            done = buffer.write(data)
        except BlockingIOError as e:  # a non-blocking stream, full: what it took
            done = e.characters_written
        if not done:  # (an unbuffered one says None) wait until it takes more, not spin
            select.select([], [out.fileno()], [])
        data = data[done or 0:]
    while True:
        try:
            buffer.flush()
            return
        except BlockingIOError:
            select.select([], [out.fileno()], [])


_BOM_FIRST = frozenset({"utf-8-sig", "utf-16", "utf-32"})
