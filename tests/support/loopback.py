"""A loopback HTTP server on a daemon thread, as a context manager: what the scripted judge and
the provider stand-ins share (127.0.0.1, a free port, shut down and joined on exit)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class Loopback:
    """Serves `handler` on 127.0.0.1 and a free port while the `with` block runs."""

    def __init__(self, server: type[ThreadingHTTPServer],
                 handler: type[BaseHTTPRequestHandler]) -> None:
        self._httpd = server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        kwargs={"poll_interval": 0.05})

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    @property
    def address(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"
