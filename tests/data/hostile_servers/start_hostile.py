"""Processes that attack `start:` (tests/run/test_start_hostile.py).

    python start_hostile.py squatter PORT LOG         # HTTP on 127.0.0.1:PORT, logs each request
    python start_hostile.py squat-after FILE PORT LOG # waits for FILE to exist, then squats PORT
    python start_hostile.py daemonize PIDFILE CMD...  # forks a setsid() daemon that ignores
                                                      # SIGTERM, then execs CMD

The squatter answers every request with 200 and an empty JSON-RPC result, the way an unrelated
service on a taken port would answer a readiness probe, and appends the request line and its
Authorization header to LOG, so a test can prove nothing (and no token) reached it. It prints
`listening` once it listens.

The daemon is what a server that "daemonizes a helper" leaves behind: a new session (so it is
in no process group of the start command), re-parented away from its parent, deaf to SIGTERM.
Its pid goes to PIDFILE.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any


def squat(port: int, log: Path) -> None:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self) -> None:
            with log.open("a", encoding="utf-8") as f:
                f.write(f"{self.command} {self.path} auth={self.headers.get('Authorization')}\n")
            body = b'{"jsonrpc": "2.0", "id": 0, "result": {}}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_DELETE = _answer

    server = HTTPServer(("127.0.0.1", port), Handler)
    print("listening", flush=True)
    server.serve_forever()


def daemonize(pidfile: Path, command: list[str]) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:  # the grandchild: re-parented once its parent exits
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            pidfile.write_text(str(os.getpid()), encoding="utf-8")
            while True:
                time.sleep(60)
        os._exit(0)
    os.wait()
    while not pidfile.exists():
        time.sleep(0.01)
    os.execvp(command[0], command)


def main() -> None:
    mode = sys.argv[1]
    if mode == "squatter":
        squat(int(sys.argv[2]), Path(sys.argv[3]))
    elif mode == "squat-after":
        while not Path(sys.argv[2]).exists():
            time.sleep(0.02)
        squat(int(sys.argv[3]), Path(sys.argv[4]))
    elif mode == "daemonize":
        daemonize(Path(sys.argv[2]), sys.argv[3:])


if __name__ == "__main__":
    main()
