"""An event stream cut into events, each at most `limit` bytes (run/bounded_http.py).

Lines end with `\\r\\n`, `\\n` or `\\r` (the event-stream grammar); they are handed on ending
with `\\n` only, whole events at a time, as valid UTF-8, so the SDK's parser sees the very events
counted here and never counts more bytes than this did. An event is held until its
blank line; one that grows past `limit` (its lines, or an unfinished line) is dropped as it
streams in, and one event carrying a `TOO_LARGE` JSON-RPC error takes its place: for the id named
in the event's first data bytes, else the request's; with neither, a data line that is no
JSON-RPC message, which the session reports as invalid protocol output (as `bounded_stdio` does
for a line without a readable id). Comment lines are dropped. Memory: at most `limit` bytes.
"""

from __future__ import annotations

from mcptest.run.bounded_stdio import HEAD_BYTES, answer_id, too_large_json


def _error_event(head: bytes, limit: int, request_id: int | str | None) -> bytes:
    size = f"more than {limit:,}"
    msg_id = answer_id(head)
    msg_id = msg_id if msg_id is not None else request_id
    if msg_id is None:
        shown = head[:80].decode("utf-8", errors="replace").replace("\n", " ")
        text = (f"a server-sent event of {size} bytes (over the {limit:,}-byte bound) without "
                f"a readable id: {shown!r}")
        return b"event: message\ndata: " + text.encode() + b"\n\n"
    return b"event: message\ndata: " + too_large_json(msg_id, size, limit) + b"\n\n"


class SseBound:
    """Feed it the body's bytes; it returns what to hand on."""

    def __init__(self, limit: int, request_id: int | str | None) -> None:
        self.limit = limit
        self.request_id = request_id
        self._lines: list[bytes] = []  # the event so far
        self._size = 0
        self._partial = bytearray()  # an unfinished line
        self._cr = False  # the last chunk ended with `\r` (maybe half of `\r\n`)
        self._skipping = False  # inside an event past the bound, until its blank line

    def feed(self, chunk: bytes) -> bytes:
        if self._cr:
            chunk = b"\r" + chunk
            self._cr = False
        if chunk.endswith(b"\r"):
            chunk, self._cr = chunk[:-1], True
        pieces = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        out = bytearray()
        for piece in pieces[:-1]:
            out += self._line(piece)
        self._grow(pieces[-1], out)
        return bytes(out)

    def end(self) -> bytes:
        """What is left when the body ends (an event without its blank line, as it came)."""
        out = bytearray()
        if self._cr:  # a `\r` at the very end ends its line
            self._cr = False
            out += self._line(b"")
        if self._skipping:
            return bytes(out)
        rest = b"".join(line + b"\n" for line in self._lines) + bytes(self._partial)
        self._lines, self._partial = [], bytearray()
        return bytes(out) + rest.decode("utf-8", errors="replace").encode()

    def _grow(self, piece: bytes, out: bytearray) -> None:
        """`piece` continues the unfinished line."""
        if self._skipping:
            if piece:
                self._partial = bytearray(b"x")  # the line is not blank; its bytes are not kept
            return
        self._partial += piece
        if self._size + len(self._partial) > self.limit:
            out += self._skip()

    def _line(self, piece: bytes) -> bytes:
        """A complete line: `piece` after the unfinished one."""
        if self._skipping:
            blank = not self._partial and not piece
            self._partial = bytearray()
            if blank:
                self._skipping = False
            return b""
        line = bytes(self._partial) + piece if self._partial else piece
        self._partial = bytearray()
        # counted and handed on as valid UTF-8, so the SDK's parser (which decodes first, an
        # invalid byte becoming 3) never measures more than this did
        line = line.decode("utf-8", errors="replace").encode()
        if not line:
            if not self._lines:
                return b""
            event = b"".join(part + b"\n" for part in self._lines) + b"\n"
            self._lines, self._size = [], 0
            return event
        if line.startswith(b":"):
            return b""
        self._lines.append(line)
        self._size += len(line) + 1
        return self._skip() if self._size > self.limit else b""

    def _skip(self) -> bytes:
        """The event went past the bound: drop it, return the event that replaces it."""
        head = bytearray()
        for line in (*self._lines, bytes(self._partial)):
            if line.startswith(b"data:"):
                head += line[5:].removeprefix(b" ")
            if len(head) >= HEAD_BYTES:
                break
        self._lines, self._size, self._skipping = [], 0, True
        self._partial = bytearray(b"x") if self._partial else bytearray()
        return _error_event(bytes(head[:HEAD_BYTES]), self.limit, self.request_id)
