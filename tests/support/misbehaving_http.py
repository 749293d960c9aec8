"""A Streamable HTTP MCP server (handshake era, JSON answers) that fails on request.

    with MisbehavingHttpServer() as server:   # server.url is http://127.0.0.1:PORT/mcp
        ...

Tools: `ok` echoes `text`; `unauthorized` answers HTTP 401 with a `WWW-Authenticate` challenge;
`forbidden` 403; `boom` 500 with a plain-text body; `html` 200 with an HTML page (a proxy's
error page); `notjson` 200 `application/json` that is not JSON; `cut` 200 `text/event-stream`
that closes before a complete event; `big` a text answer of `bytes` characters. Initialize,
tools/list and notifications behave, so a server is always ready and usable after a fault.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOOLS = [{"name": n, "inputSchema": {"type": "object"}}
         for n in ("ok", "unauthorized", "forbidden", "boom", "html", "notjson", "cut", "big")]
SESSION = "misbehaving-session-1"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, content_type: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Mcp-Session-Id", SESSION)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _result(self, msg_id: Any, result: Any) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}).encode()
        self._send(200, body, "application/json")

    def do_GET(self) -> None:  # no server-initiated stream
        self._send(405, b"", "text/plain")

    def do_DELETE(self) -> None:
        self._send(200, b"", "text/plain")

    def do_POST(self) -> None:
        msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        method, msg_id = msg.get("method"), msg.get("id")
        if msg_id is None:  # a notification
            self._send(202, b"", "text/plain")
        elif method == "initialize":
            self._result(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                                  "serverInfo": {"name": "misbehaving-http", "version": "0.0.1"}})
        elif method == "tools/list":
            self._result(msg_id, {"tools": TOOLS})
        elif method == "tools/call":
            params = msg.get("params") or {}
            self._call(msg_id, params.get("name"), params.get("arguments") or {})
        else:
            body = {"jsonrpc": "2.0", "id": msg_id,
                    "error": {"code": -32601, "message": "Method not found"}}
            self._send(200, json.dumps(body).encode(), "application/json")

    def _call(self, msg_id: Any, name: str, args: dict[str, Any]) -> None:
        if name == "ok":
            self._result(msg_id, {"content": [{"type": "text", "text": str(args.get("text"))}]})
        elif name == "unauthorized":
            self._send(401, b"token expired", "text/plain", {
                "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"'})
        elif name == "forbidden":
            self._send(403, b"no", "text/plain")
        elif name == "boom":
            self._send(500, b"Internal Server Error", "text/plain")
        elif name == "html":
            self._send(200, b"<html><body><h1>502 Bad Gateway</h1></body></html>",
                       "text/html; charset=utf-8")
        elif name == "notjson":
            self._send(200, b"{not json", "application/json")
        elif name == "cut":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b'event: message\ndata: {"jsonrpc": "2.0", "id": ')
            self.wfile.flush()
            self.close_connection = True
        elif name == "big":
            text = "x" * int(args.get("bytes", 1_000_000))
            self._result(msg_id, {"content": [{"type": "text", "text": text}]})
        else:
            self._result(msg_id, {"content": [], "isError": True})


class MisbehavingHttpServer:
    """The server above on 127.0.0.1 and a free port, served from a daemon thread."""

    def __init__(self) -> None:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/mcp"

    def __enter__(self) -> MisbehavingHttpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
