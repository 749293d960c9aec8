"""Reading a file that may be hostile: only a regular file, opened without blocking, bounded.

A FIFO would block the read forever and `/dev/zero` never ends, so the file is opened with
`O_NONBLOCK` and its type checked on the open descriptor before a byte is read; the read stops
one byte past the bound, whatever the file claims its size is.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from typing import TYPE_CHECKING, BinaryIO

from mcptest.errors import ReadBackError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

BLOCK = 1 << 20
"""Bytes read at a time (a scan sees the file block by block)."""


class FileRefused(ReadBackError):
    """The file itself was refused (its type, its size, an OS error), before any parsing."""

    def __init__(self, message: str, file: str, *, too_large: bool = False) -> None:
        self.too_large = too_large
        super().__init__(message, file)


def bound_text(n: int) -> str:
    """`64 MiB`, `1,024 KiB`: how a bound is named in messages."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20:,} MiB"
    return f"{n // 1024:,} KiB"


def too_large(shown: str, max_bytes: int) -> FileRefused:
    return FileRefused(f"the file is larger than {bound_text(max_bytes)}", shown, too_large=True)


@contextmanager
def open_regular(path: str | Path, shown: str, *, kind: str) -> Iterator[tuple[BinaryIO, int]]:
    """The open file and its size, when it is a regular file; `kind` names what was expected
    ("a suite file", "a JSON report") in the refusal."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise FileRefused(f"is a directory; give {kind}", shown) from None
    except OSError as e:
        raise FileRefused(f"cannot read the file: {e.strerror or e}", shown) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused(f"is a directory; give {kind}", shown)
        raise FileRefused(f"not a regular file (a device, FIFO or socket); give {kind}", shown)
    with os.fdopen(fd, "rb") as f:
        yield f, info.st_size


def bounded_blocks(f: BinaryIO, shown: str, max_bytes: int) -> Iterator[bytes]:
    """The file's bytes block by block; refused past `max_bytes` (the bound, not the size the
    file claims, stops the read)."""
    total = 0
    while True:
        try:
            block = f.read(min(BLOCK, max_bytes + 1 - total))
        except OSError as e:
            raise FileRefused(f"cannot read the file: {e.strerror or e}", shown) from None
        if not block:
            return
        total += len(block)
        if total > max_bytes:
            raise too_large(shown, max_bytes)
        yield block


def read_regular(path: str | Path, shown: str, *, max_bytes: int, kind: str) -> bytes:
    """The bytes of a regular file of at most `max_bytes`; `FileRefused` otherwise."""
    with open_regular(path, shown, kind=kind) as (f, size):
        if size > max_bytes:
            raise too_large(shown, max_bytes)
        return b"".join(bounded_blocks(f, shown, max_bytes))


def decode_utf8(raw: bytes, shown: str) -> str:
    """UTF-8 text (a leading BOM dropped); a bad byte is refused at its line and column."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise ReadBackError("the file is not UTF-8 text", shown, line=line,
                            column=column) from None
