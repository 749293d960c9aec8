"""What a server process writes to stderr (a `start:` process: its stdout too), kept in an
unlinked temp file the child writes to directly, and read back by byte offsets.

A test's window (`mark()` before its request, `window(mark)` once the answer is in) is what the
server wrote while that request was in flight: the report's `server_stderr` of that test, never
another test's lines (docs/pr-comment.md, "Server stderr"). Reads use `os.pread`, so they never
move the file offset the child shares with us.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import IO, Any

KEEP_BYTES = 80_000
"""Bytes kept in memory when the server is gone, for reports written after it."""


TELLING = re.compile(
    r"\b(?:404|40[13]|E404|ENOENT|EACCES|ENOTFOUND|ECONNREFUSED|Not Found|not found|"
    r"No such file|command not found|ModuleNotFoundError|ImportError|Permission denied|"
    r"Cannot find (?:module|package))\b")
"""A line that says what went wrong, whatever follows it."""


class StderrLog:
    """The child's stderr. `close()` drops it; `retire()` closes the file but keeps its last
    `KEEP_BYTES`, so a window opened before the server died can still be read."""

    def __init__(self) -> None:
        self.file: IO[Any] = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115
        self._kept = b""
        self._kept_from = 0

    def mark(self) -> int:
        """Bytes written so far: where a window starts."""
        if self.file.closed:
            return self._kept_from + len(self._kept)
        return os.fstat(self.file.fileno()).st_size

    def _text(self, start: int) -> str:
        """The bytes from `start` to the end (what is still kept), decoded."""
        if self.file.closed:
            data = self._kept[max(0, start - self._kept_from):]
        else:
            fd = self.file.fileno()
            start = max(start, 0)
            data = os.pread(fd, max(0, os.fstat(fd).st_size - start), start)
        return data.decode("utf-8", errors="replace")

    def tail(self, max_chars: int = 2000) -> str:
        """The last `max_chars` characters the server wrote, whoever it wrote them for."""
        return self._text(self.mark() - max_chars * 4)[-max_chars:].strip()

    def window(self, start: int, max_chars: int = 2000) -> str:
        """What was written since `mark()` returned `start`: its last `max_chars` characters
        when longer (the end is where a crash shows)."""
        return self._text(max(start, self.mark() - max_chars * 4))[-max_chars:].strip()

    def last_lines(self, n: int) -> str:
        """The last `n` non-empty lines, joined with ` | ` for one-line messages; the first
        line that says what went wrong (`404 Not Found`, `ENOENT`, `ModuleNotFoundError`, …)
        leads when it is not among them: npm's 404 comes eight lines before its end."""
        lines = [ln.strip() for ln in self.tail(4000).splitlines() if ln.strip()]
        scored = [(len(TELLING.findall(ln)), -i, ln) for i, ln in enumerate(lines)]
        best = max(scored, default=(0, 0, ""))
        telling = best[2] if best[0] else None  # the line saying most, the first of equals
        last = lines[-n:]
        if telling is not None and telling not in last:
            return " | ".join([telling, "…", *last])
        return " | ".join(last)

    def retire(self) -> None:
        if not self.file.closed:
            end = self.mark()
            self._kept_from = max(0, end - KEEP_BYTES)
            self._kept = os.pread(self.file.fileno(), end - self._kept_from, self._kept_from)
            self.file.close()

    def close(self) -> None:
        self._kept, self._kept_from = b"", 0
        self.file.close()
