"""Hostile read-back inputs too large to commit, written at test time (tests/data/hostile_reads/
README.md lists them): reports by the million rows or values, shards, and artifact zips. Each
is streamed to its file, so the test process never holds it whole."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import BinaryIO

HEAD = ('{"version": 1, "tool": {"name": "mcptest", "version": "0.1.0"}, '
        '"started_at": "2026-11-20T10:00:00Z", "finished_at": "2026-11-20T10:01:00Z", '
        '"suites": ["s.yml"], ')
ROW = ('{"id": "s.yml::tool::t%d", "name": "t%d", "suite_file": "s.yml", '
       '"location": {"file": "s.yml", "line": 1}, "status": "passed"%s}')
SUMMARY = '"summary": {"counts": {"total": 1, "passed": 1}, "duration_ms": 1.0, "exit_code": 0}'
BLOCK_ROWS = 10_000


def _report(out: BinaryIO, rows: int, extra: str = "", tail: str = "") -> None:
    out.write((HEAD + '"tests": [').encode())
    for start in range(0, rows, BLOCK_ROWS):
        out.write(", ".join(ROW % (i, i, extra) for i in range(start, min(rows, start + BLOCK_ROWS)))
                  .encode())
        if start + BLOCK_ROWS < rows:
            out.write(b", ")
    out.write(f"], {SUMMARY}{tail}}}\n".encode())


def rows_report(path: Path, rows: int) -> Path:
    """`rows` short passed rows (85 bytes each)."""
    with path.open("wb") as f:
        _report(f, rows)
    return path


def values_report(path: Path, values: int, shard: tuple[int, int] | None = None) -> Path:
    """One row whose `args` is a list of empty lists, `values` values as the reader counts them
    (each `[], ` is two: the list and its place in the outer one), 1.5 bytes a value."""
    values //= 2
    tail = ""
    if shard is not None:
        tail = f', "shard": {{"index": {shard[0]}, "count": {shard[1]}, "plan": []}}'
    with path.open("wb") as f:
        f.write((HEAD + '"tests": [' + (ROW % (shard[0] if shard else 0, 0, ', "args": [')
                                        ).removesuffix("}")).encode())
        chunk = b"[], " * 100_000
        for _ in range(values // 100_000):
            f.write(chunk)
        f.write(f"[]]}}], {SUMMARY}{tail}}}\n".encode())
    return path


def big_report_zip(megabytes: int) -> bytes:
    """A zip of a valid report about `megabytes` MB long (rows with a 2 KB message each), as
    upload-artifact stores it: it compresses about twenty to one."""
    buffer = io.BytesIO()
    message = ', "message": "%s"' % ("the answer changed; " * 100)
    rows = megabytes * 1_000_000 // 2_100
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z, \
            z.open("mcptest.json", "w", force_zip64=True) as f:
        _report(f, rows, message)
    return buffer.getvalue()


def lying_zip(inflated_mib: int, declared: int = 1024) -> bytes:
    """A zip of `inflated_mib` MiB of zeros whose local header and directory say `declared`
    bytes (the attack: a reader that trusts the directory sizes its buffer by it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z, \
            z.open("mcptest.json", "w", force_zip64=False) as f:
        zeros = b"0" * (1 << 20)
        for _ in range(inflated_mib):
            f.write(zeros)
    data = bytearray(buffer.getvalue())
    data[22:26] = declared.to_bytes(4, "little")  # the local header's uncompressed size
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = declared.to_bytes(4, "little")
    return bytes(data)


def zipped(path: Path) -> bytes:
    """A committed file zipped as upload-artifact stores a report (`mcptest.json`)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("mcptest.json", path.read_bytes())
    return buffer.getvalue()

