"""What the four provider stand-ins share: a loopback HTTP server, per-model scripts, a record
of what arrived, and one reading of a script step.

A stand-in speaks one provider's own wire format (`anthropic.py`, `openai_chat.py`,
`gemini.py`, `mistral.py`). mcptest reaches it as a user reaches the provider: the provider's key
and the base-URL variable litellm reads (`env()`), nothing patched. Every request is checked
the way the provider documents (`check`); a request the provider would reject is answered with
the provider's own 4xx error and kept in `problems`, so a test that expects a clean run asserts
`problems == []`.

Steps are the loopback judge's (`support.judge_server`): `Verdict`, `ToolCalls` and `Fault`.
Each family answers them in its own form: `Fault.truncated` with its token-limit stop reason,
`Fault.refusal(field=True)` with its refusal, `Fault.rate_limit` with its retry hint where the
provider puts it, `Fault.overloaded()` with its overload status, `Fault.rejected(...)` with its
400. `Verdict(thinking_tokens=N)` spends N tokens thinking first, where the model thinks.
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from support.judge_server import Fault, Script, Step, ToolCalls, Verdict
from support.loopback import Loopback


def tokens(text: str) -> int:
    """The stand-ins' tokenizer: characters / 4, rounded up (at least 1)."""
    return max(1, math.ceil(len(text) / 4))


@dataclass
class Answer:
    """A step read as an answer: what a family puts in its own response shape."""

    text: str | None
    calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    stop: str = "stop"
    """`stop`, `length` (cut at the token limit), `refusal` or `tool`."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    thinking_tokens: int = 0


def answer_of(step: Step, prompt: str) -> Answer:
    """The neutral answer of a success step (faults with a status are handled apart)."""
    if isinstance(step, ToolCalls):
        calls = list(step.calls)
        c = step.completion_tokens if step.completion_tokens is not None else tokens(
            json.dumps(calls))
        return Answer(step.content, calls, "tool", _prompt(step.prompt_tokens, prompt), c)
    if isinstance(step, Verdict):
        text = step.body()
        c = step.completion_tokens if step.completion_tokens is not None else tokens(text)
        return Answer(text, [], "stop", _prompt(step.prompt_tokens, prompt), c,
                      step.thinking_tokens)
    text = step.content
    c = step.completion_tokens if step.completion_tokens is not None else tokens(text)
    stop = "length" if step.kind == "truncated" else (
        "refusal" if step.as_refusal_field else "stop")
    return Answer(text, [], stop, tokens(prompt), c)


def _prompt(given: int | None, prompt: str) -> int:
    return given if given is not None else tokens(prompt)


@dataclass
class Seen:
    """One request as it arrived."""

    model: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    problems: list[str]


class Reply(Exception):
    """Raised by a family to answer at once with `status`, `payload` and `headers`."""

    def __init__(self, status: int, payload: dict[str, Any] | list[dict[str, Any]],
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(status)
        self.status, self.payload, self.headers = status, payload, headers or {}


class StandIn(Loopback):
    """A loopback server speaking one provider's wire format; use it as a context manager."""

    _httpd: _Server

    family = ""
    key_env = ""
    base_env = ""
    base_path = ""
    """Appended to the server's address in `base_url` (what the provider's base URL looks like)."""

    def __init__(self, key: str | None = None) -> None:
        self.key = key or f"test-{self.family}-key-0f3c9a"
        self._lock = threading.Lock()
        self._scripts: list[Script] = []
        self.seen: list[Seen] = []
        self.billed: list[tuple[str, int, int]] = []
        """(model, input tokens, output tokens with thinking) of every answer, as billed."""
        self._arrived = threading.Event()
        super().__init__(_Server, _Handler)
        self._httpd.standin = self

    @property
    def base_url(self) -> str:
        return self.address + self.base_path

    def env(self) -> dict[str, str]:
        """The provider's key and litellm's base-URL variable, as a user sets them."""
        return {self.key_env: self.key, self.base_env: self.base_url}

    def script(self, model: str, steps: list[Step] | Step, *, rubric: str | None = None,
               candidate: str | None = None) -> None:
        """The next requests for `model` (whose prompt holds `rubric`/`candidate`) take these
        steps in order; the last repeats. The latest matching script wins."""
        seq = list(steps) if isinstance(steps, list) else [steps]
        with self._lock:
            self._scripts.append(Script(model, seq, rubric, candidate))

    def requests(self, model: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [s.body for s in self.seen if model is None or s.model == model]

    def count(self, model: str | None = None) -> int:
        return len(self.requests(model))

    def bill(self, model: str, prompt: int, completion: int) -> None:
        with self._lock:
            self.billed.append((model, prompt, completion))

    @property
    def problems(self) -> list[str]:
        """Every way a request broke the provider's documented rules."""
        with self._lock:
            return [p for s in self.seen for p in s.problems]

    def wait_for_requests(self, n: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.count() < n:
            self._arrived.clear()
            if self.count() >= n:
                return
            left = deadline - time.monotonic()
            assert left > 0 and self._arrived.wait(left), f"fewer than {n} request(s) arrived"

    # ---------------------------------------------------------------- what a family defines

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        """The model a request is for, None when the path is not the provider's endpoint."""
        raise NotImplementedError

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        """Every documented rule the request breaks (empty: the provider would accept it)."""
        raise NotImplementedError

    def prompt_text(self, body: dict[str, Any]) -> str:
        raise NotImplementedError

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        """The provider's error response for `status`."""
        raise NotImplementedError

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> Any:
        """The provider's success response carrying `answer` (a list: NDJSON lines)."""
        raise NotImplementedError

    def overload_status(self) -> int:
        return 503

    def rejection(self, problems: list[str]) -> Reply:
        return self.error(400, "; ".join(problems))

    # ---------------------------------------------------------------- one request

    def handle(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return self.error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return self.error(400, "the body is not a JSON object")
        model = self.model_of(path, body)
        if model is None:
            return self.error(404, f"no such endpoint: {path}", kind="not_found")
        problems = self.check(path, headers, body)
        text = self.prompt_text(body)
        with self._lock:
            self.seen.append(Seen(model, path, headers, body, problems))
            self._arrived.set()
            script = next((s for s in reversed(self._scripts) if s.matches(model, text)), None)
            step = script.next() if script is not None and not problems else None
        if problems:
            return self.rejection(problems)
        if step is None:
            return self.error(404, f"model {model!r} is not scripted", kind="not_found")
        return self.respond(model, body, text, step)

    def respond(self, model: str, body: dict[str, Any], prompt: str, step: Step) -> Reply:
        if isinstance(step, Fault) and step.kind == "disconnect":
            return Reply(0, {})
        if isinstance(step, Fault) and step.kind == "http":
            status = step.status or self.overload_status()
            return self.error(status, step.content or f"scripted {status}",
                              retry_after=step.retry_after)
        latency = step.latency
        if latency > 0:
            time.sleep(latency)
        return Reply(200, self.success(model, body, answer_of(step, prompt)))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    standin: StandIn


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.server.standin.handle(self.path, headers, raw)
        if reply.status == 0:  # a scripted disconnect
            self.close_connection = True
            self.connection.close()
            return
        ndjson = isinstance(reply.payload, list)  # a stream: one object per line (Ollama)
        data = ("".join(json.dumps(c) + "\n" for c in reply.payload) if ndjson
                else json.dumps(reply.payload)).encode()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type",
                             "application/x-ndjson" if ndjson else "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up (a timeout): nothing to answer
