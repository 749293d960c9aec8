"""An MCP server over HTTP (handshake era) whose answers are as large as asked, streamed: the
body is generated piece by piece, so 800 MB costs the server no memory
(tests/run/test_http_bound.py).

    with HugeHttpServer() as server:   # server.url: Streamable HTTP, server.sse_url: legacy SSE
        ...

Tools (`bytes` sets the size of the text answer; nothing about it is announced in advance, no
Content-Length): `ok` echoes `text`; `json` answers with `application/json`; `events` with one
server-sent event; `gzip` with a gzip body (a compression bomb: 800 MB of text is ~800 KB on the
wire) sent although mcptest asked for no compression; `bare` with a JSON body whose first bytes
name no id (an `id` at its very end). Over the legacy SSE transport every answer is an event on
the one stream, which goes on after a huge one. `HugeHttpServer(listing_depth=N)` lists one tool
whose input schema nests N objects deep instead.
"""

from __future__ import annotations

import json
import queue
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOOLS = [{"name": n, "inputSchema": {"type": "object"}}
         for n in ("ok", "json", "events", "gzip", "bare")]
PIECE = b"x" * 65536
INIT = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
        "serverInfo": {"name": "huge-http", "version": "0.0.1"}}


def _text(size: int) -> Iterator[bytes]:
    for _ in range(size // len(PIECE)):
        yield PIECE
    yield b"x" * (size % len(PIECE))


def _answer(msg_id: Any, size: int, *, id_last: bool = False) -> Iterator[bytes]:
    """A tools/call result with a text of `size` bytes, in pieces."""
    head = '{"jsonrpc": "2.0", ' + ("" if id_last else f'"id": {json.dumps(msg_id)}, ')
    yield (head + '"result": {"content": [{"type": "text", "text": "').encode()
    yield from _text(size)
    yield ('"}]}' + (f', "id": {json.dumps(msg_id)}' if id_last else "") + "}").encode()


def _gzipped(pieces: Iterator[bytes]) -> Iterator[bytes]:
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for piece in pieces:
        out = packer.compress(piece)
        if out:
            yield out
    yield packer.flush()


def nested_tools(depth: int) -> list[dict[str, Any]]:
    """One tool whose input schema nests `depth` objects deep (2 JSON levels each)."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return [{"name": "deep", "inputSchema": schema}]


def _message(msg_id: Any, method: str | None, params: dict[str, Any],
             depth: int = 0) -> tuple[str, Iterator[bytes]]:
    """(kind, body pieces) of the answer to one request: kind is json, events, gzip or bare."""
    if method == "initialize":
        return "json", iter([json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": INIT}).encode()])
    if method == "tools/list":
        tools = nested_tools(depth) if depth else TOOLS
        body = {"jsonrpc": "2.0", "id": msg_id, "result": {"tools": tools}}
        return "json", iter([json.dumps(body).encode()])
    if method != "tools/call":
        body = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": "no"}}
        return "json", iter([json.dumps(body).encode()])
    name, args = params.get("name"), params.get("arguments") or {}
    if name == "ok":
        result = {"content": [{"type": "text", "text": str(args.get("text"))}]}
        return "json", iter([json.dumps({"jsonrpc": "2.0", "id": msg_id,
                                         "result": result}).encode()])
    size = int(args.get("bytes", 1_000_000))
    return str(name), _answer(msg_id, size, id_last=name == "bare")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, *args: Any) -> None:
        pass

    def _chunked(self, content_type: str, pieces: Iterator[bytes],
                 encoding: str | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        try:
            for piece in pieces:
                if piece:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client stopped reading: as it should

    def do_GET(self) -> None:
        if self.path != "/sse":
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            self.wfile.write(b"event: endpoint\ndata: /messages?session_id=1\n\n")
            self.wfile.flush()
            while True:
                pieces = self.server.events.get()
                if pieces is None:
                    return
                self.wfile.write(b"event: message\ndata: ")
                for piece in pieces:
                    self.wfile.write(piece)
                self.wfile.write(b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return

    def do_DELETE(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        method, msg_id = msg.get("method"), msg.get("id")
        if msg_id is None or self.path.startswith("/messages"):
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            if msg_id is not None:
                self.server.events.put(_message(msg_id, method, msg.get("params") or {},
                                                self.server.depth)[1])
            return
        kind, pieces = _message(msg_id, method, msg.get("params") or {}, self.server.depth)
        if kind == "events":
            self._chunked("text/event-stream",
                          iter([b"event: message\ndata: ", *pieces, b"\n\n"]))
        elif kind == "gzip":
            self._chunked("application/json", _gzipped(pieces), encoding="gzip")
        else:
            self._chunked("application/json", pieces)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    events: queue.Queue[Iterator[bytes] | None]
    depth: int


class HugeHttpServer:
    """The server above on 127.0.0.1 and a free port, served from daemon threads."""

    def __init__(self, listing_depth: int = 0) -> None:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.events = queue.Queue()
        self._httpd.depth = listing_depth
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        port = self._httpd.server_address[1]
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.sse_url = f"http://127.0.0.1:{port}/sse"

    def __enter__(self) -> HugeHttpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.events.put(None)
        self._httpd.shutdown()
        self._httpd.server_close()
