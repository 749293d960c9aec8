"""Bounds a JSON text must keep before anything is built from it, checked on its bytes.

`json.loads` recurses once per nesting level (deep enough is a RecursionError), both it and
pydantic's parser accept `NaN` and `Infinity` (and turn `1e400` into infinity), and a parsed
value costs up to twenty times its text (`[[],[],…]`). So before a read-back file is parsed,
one pass over its bytes, fed block by block as they are read or decompressed, refuses nesting
deeper than `max_depth`, more than `max_values` values (each array, object, and member of one),
`NaN`/`Infinity` and numbers out of float range, at their line and column.

The pass runs at the speed of `bytes` methods: each block has its escapes blanked (same length,
so offsets hold), its strings cut out by splitting on quotes, and what is left counted; only a
block where a bound is crossed is walked token by token, to say where.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import accumulate

from mcptest.errors import ReadBackError

_DELIMITERS = b' \t\r\n,:[]{}"'
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DELTA = [0] * 256
for _b in b"[{":
    _DELTA[_b] = 1
for _b in b"]}":
    _DELTA[_b] = -1
_BIG_NUMBER = re.compile(rb"[eE]\+?0*[1-9][0-9]{2,}|[0-9]{300,}")
"""A number that may be out of float range (an exponent of 100 or more, or 300 digits)."""
_TOKEN = re.compile(rb'"[^"]*"?|[\[{]|[\]}]|,|[^\s,:\[\]{}"]+')
_NOT_A_NUMBER = (b"NaN", b"Infinity")


@dataclass(frozen=True)
class JsonLimits:
    max_depth: int
    max_values: int


def _blank_escapes(chunk: bytes) -> bytes:
    r"""`\\` and `\"` blanked to two bytes that are neither: every `"` left delimits a string."""
    return chunk.replace(b"\\\\", b"__").replace(b'\\"', b"__")


class JsonScan:
    """Feed the bytes of one JSON text in blocks, then `close()`; refuses with `ReadBackError`.

    Syntax is not checked here (the parser that follows does it, with its own positions): only
    what would make that parser crash, hang, run out of memory or accept a non-finite number.
    """

    def __init__(self, shown: str, limits: JsonLimits, *, values_used: int = 0) -> None:
        self.shown = shown
        self.limits = limits
        self.values = values_used
        """Values counted so far (several files can share one budget, e.g. merged shards)."""
        self.depth = 0
        self._inside = False
        self._started = False
        self._carry = b""
        self._line = 1
        self._column = 1
        """Line and column (bytes) where the unprocessed part begins."""

    def feed(self, block: bytes) -> None:
        buf = self._carry + block
        cut = max(buf.rfind(bytes([d])) for d in _DELIMITERS) + 1
        if cut <= 0:  # one token so far (a long number or string): wait for its end
            self._carry = buf
            return
        self._carry = buf[cut:]
        self._scan(buf[:cut])

    def close(self) -> None:
        if self._carry:
            self._scan(self._carry)
            self._carry = b""

    def _scan(self, chunk: bytes) -> None:
        plain = _blank_escapes(chunk)
        parts = plain.split(b'"')
        outside = b'"'.join(parts[1::2] if self._inside else parts[0::2])
        opens = outside.count(b"[") + outside.count(b"{")
        closes = outside.count(b"]") + outside.count(b"}")
        values = outside.count(b",") + opens
        root = int(not self._started and bool(parts[0].strip() or len(parts) > 1))
        values += root  # the top-level value
        peak = self.depth
        if opens:
            brackets = outside.translate(None, _NOT_BRACKETS)
            peak = max(accumulate(map(_DELTA.__getitem__, brackets), initial=self.depth))
        suspect = (peak > self.limits.max_depth or self.values + values > self.limits.max_values
                   or any(word in outside for word in _NOT_A_NUMBER)
                   or _BIG_NUMBER.search(outside) is not None)
        if suspect:
            self._pinpoint(chunk, plain, root)
        self._started = self._started or bool(root)
        self.values += values
        self.depth += opens - closes
        self._inside ^= (len(parts) - 1) % 2 == 1
        newlines = chunk.count(b"\n")
        self._line += newlines
        self._column = (len(chunk) - chunk.rfind(b"\n") if newlines
                        else self._column + len(chunk))

    def _pinpoint(self, chunk: bytes, plain: bytes, root: int) -> None:
        """Walk the chunk token by token from the state it starts in; raise at the first token
        that crosses a bound (a chunk that only looked suspect passes)."""
        depth, values = self.depth, self.values + root
        pos = 0
        if self._inside:  # the chunk starts inside a string: skip to its closing quote
            pos = plain.find(b'"') + 1 or len(plain)
        for m in _TOKEN.finditer(plain, pos):
            first = plain[m.start()]
            if first == 0x22:  # a string
                continue
            if first in b"[{":
                depth, values = depth + 1, values + 1
                if depth > self.limits.max_depth:
                    self._refuse(chunk, m.start(), f"nesting is too deep (more than "
                                 f"{self.limits.max_depth} levels of arrays and objects)")
            elif first in b"]}":
                depth -= 1
            elif first == 0x2C:
                values += 1
            else:
                self._number(chunk, m.start(), m.group())
            if values > self.limits.max_values:
                self._refuse(chunk, m.start(), f"more than {self.limits.max_values:,} values "
                             "(arrays, objects and their members)")

    def _number(self, chunk: bytes, at: int, token: bytes) -> None:
        if token.lstrip(b"+-") in _NOT_A_NUMBER:
            self._refuse(chunk, at, "NaN and Infinity are not JSON numbers")
        try:
            value = float(token)
        except ValueError:
            return  # not a number: the parser says what it is
        if math.isinf(value):
            self._refuse(chunk, at, "a number out of range (it would be infinite)")

    def _refuse(self, chunk: bytes, at: int, message: str) -> None:
        before = chunk.rfind(b"\n", 0, at)
        line = self._line + chunk.count(b"\n", 0, at)
        if before >= 0:
            column = len(chunk[before + 1:at].decode("utf-8", "replace")) + 1
        else:
            column = self._column + len(chunk[:at].decode("utf-8", "replace"))
        raise ReadBackError(message, self.shown, line=line, column=column)


def check_json(data: bytes, shown: str, limits: JsonLimits, *, values_used: int = 0) -> int:
    """Scan a whole JSON text at once; returns the values it holds (plus `values_used`)."""
    scan = JsonScan(shown, limits, values_used=values_used)
    scan.feed(data)
    scan.close()
    return scan.values
