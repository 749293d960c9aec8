"""A scripted loopback judge for `mcptest demo-judge`: an OpenAI-compatible endpoint on 127.0.0.1
that answers every chat completion with a verdict made from a hash of the request, not by a
model. It lets a newcomer without any key see what a live jury, a calibration and a recording
look like (docs/judges.md, "A scripted judge, to see one work"); it measures nothing.

Each answer says so in its reason, and its model is `mcptest-scripted`. The score depends on the
model asked and on the request, so jurors of one jury differ and a calibration finds
disagreements, the same way on every run.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SCRIPTED_MODEL = "mcptest-scripted"
REASON = "[scripted judge, not a model] score {score:.2f} from a hash of the request"
MAX_BODY = 16 * 1024 * 1024


_NONCE = re.compile(r"(?<=_)[0-9a-f]{12}\b")
"""The judge prompt's per-call nonce (`<candidate_NONCE>`, llm/prompt.py): left out of the
hash, so one request scores the same on every run."""


def _share(*parts: Any) -> float:
    """A number in [0, 1] fixed by `parts` (nonces left out)."""
    text = _NONCE.sub("", json.dumps(parts, sort_keys=True, default=str))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:4], "big") / 0xFFFFFFFF


def scripted_score(model: str, messages: Any) -> float:
    """A score fixed by the messages sent (one base for every juror, in [0.6, 1.0]) and the
    model's name (each juror's own offset, within ±0.15): jurors mostly agree, and sometimes
    split, as real ones do."""
    base = 0.6 + 0.4 * _share(messages)
    return round(min(1.0, max(0.0, base + 0.3 * (_share(model, messages) - 0.5))), 2)


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the command's own output is what the reader reads."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if not self.path.rstrip("/").endswith("/chat/completions") or length > MAX_BODY:
            self._send(404, {"error": {"message": "the scripted judge answers only "
                                                  "/chat/completions"}})
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._send(400, {"error": {"message": "not JSON"}})
            return
        model = str(body.get("model", ""))
        score = scripted_score(model, body.get("messages"))
        content = json.dumps({"score": score, "reason": REASON.format(score=score)})
        tokens = max(1, length // 4)
        self._send(200, {
            "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0,
            "model": SCRIPTED_MODEL,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": tokens, "completion_tokens": 20,
                      "total_tokens": tokens + 20},
        })

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class ScriptedJudge:
    """The endpoint, served from a daemon thread while the `with` block runs."""

    def __init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedJudge:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
