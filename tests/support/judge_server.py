"""A loopback OpenAI-compatible judge server that tests script per model.

Judge tests must go through litellm over real HTTP, so this server stands in for a provider or a
gateway. It answers `POST /v1/chat/completions` and `POST /chat/completions` on 127.0.0.1 and a
free port, from a daemon thread, and keeps everything it saw so tests can assert on it.

    with JudgeServer() as js:
        js.script("judge-a", [Fault.rate_limit(retry_after=1), Verdict(score=0.9)])
        js.script("judge-b", [Verdict(score=0.2, reason="off topic")], candidate="weather")
        env = js.gateway_env()              # MCPTEST_JUDGE_BASE_URL + MCPTEST_JUDGE_API_KEY
        ...                                  # run the judge engine against env
        js.count("judge-a")                  # requests that reached the server for that model
        js.requests("judge-a")               # their JSON bodies, in order
        js.usage("judge-a")                  # (prompt_tokens, completion_tokens) it reported
        js.peak_in_flight("judge-a")         # most concurrent requests it saw for that model

Scripts: `script(model, steps, rubric=None, candidate=None, tools=None)` (`model="*"`: any
model). Each request takes the next step of the first matching script (the most recently added
script wins; `rubric`/`candidate` are substrings that must appear somewhere in the request's
messages, `tools` in the tools it offers, as JSON). The last step repeats forever.
A model with no matching script gets a 404. Steps are `Verdict` (a JSON verdict answer, with
optional latency and token counts), `ToolCalls` (an assistant turn calling tools, for agent
tests) or `Fault`: `rate_limit` (429 + Retry-After), `server_error`
(500), `overloaded` (503), `rejected` (a 400 with a message), `truncated` (text cut at the token
limit: `finish_reason: length`), `slow` (answers after the given seconds, past a client timeout), `malformed` (text that is
not JSON), `fenced` (the verdict inside a markdown fence), `refusal` (plain refusal text, or the
OpenAI `refusal` field), `text` (any content verbatim), `disconnect` (closes the socket) and
`reset` (resets it: RST).

Usage: prompt tokens default to characters/4 of the messages (rounded up), completion tokens to
characters/4 of the answer; `Verdict(prompt_tokens=…, completion_tokens=…)` overrides both.
"""

from __future__ import annotations

import json
import math
import socket
import struct
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from support.loopback import Loopback


@dataclass(frozen=True)
class Verdict:
    """A well-formed verdict answer."""

    score: float | None = 0.9
    passed: bool | None = None
    reason: str = "scripted verdict"
    evidence: str | None = None
    abstain: bool | None = None
    latency: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    label: str | None = None
    """A labeled jury's answer (`Verdict(score=None, label="friendly")`)."""
    thinking_tokens: int = 0
    """Tokens a thinking model spends before it answers (the provider stand-ins count them
    against the output limit, as Gemini and OpenAI's reasoning models do)."""

    def body(self) -> str:
        out: dict[str, Any] = {"reason": self.reason}
        if self.label is not None:
            out["label"] = self.label
        if self.score is not None:
            out["score"] = self.score
        if self.passed is not None:
            out["pass"] = self.passed
        if self.evidence is not None:
            out["evidence"] = self.evidence
        if self.abstain is not None:
            out["abstain"] = self.abstain
        return json.dumps(out)


DRAFT_THEN_CUT = (
    'First a draft: {"score": 1.0, "pass": true, "reason": "draft", "evidence": "", '
    '"abstain": false}. On a second reading the candidate misses the tag, so the verdict is '
    '{"score": 0.1, "pass": fal')
"""A text-mode answer cut at the token limit after a complete draft verdict."""


@dataclass(frozen=True)
class Fault:
    """A scripted failure or an odd-but-valid answer."""

    kind: str
    retry_after: float | None = None
    status: int = 500
    latency: float = 0.0
    content: str = ""
    as_refusal_field: bool = False
    completion_tokens: int | None = None

    @classmethod
    def rate_limit(cls, retry_after: float | None = 1) -> Fault:
        return cls("http", retry_after=retry_after, status=429)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        return cls("http", status=status)

    @classmethod
    def overloaded(cls) -> Fault:
        """The provider's own overload answer (Anthropic 529, Gemini and others 503)."""
        return cls("http", status=0)

    @classmethod
    def rejected(cls, message: str, status: int = 400) -> Fault:
        """A 4xx with the provider's error text (a schema the endpoint refuses, …)."""
        return cls("http", status=status, content=message)

    @classmethod
    def truncated(cls, text: str = DRAFT_THEN_CUT) -> Fault:
        """An answer cut at the token limit (`finish_reason: length` and its kin); by default
        a thinking-aloud answer that quotes a draft verdict and is cut before its real one."""
        return cls("truncated", content=text)

    @classmethod
    def slow(cls, seconds: float, verdict: Verdict | None = None) -> Fault:
        return cls("text", latency=seconds, content=(verdict or Verdict()).body())

    @classmethod
    def malformed(cls, text: str = '{"score": 0.9, "reason": "cut off') -> Fault:
        return cls("text", content=text)

    @classmethod
    def fenced(cls, verdict: Verdict | None = None, lang: str = "json") -> Fault:
        body = (verdict or Verdict()).body()
        return cls("text", content=f"Here is my verdict:\n```{lang}\n{body}\n```")

    @classmethod
    def refusal(cls, text: str = "I'm sorry, but I can't help with that.",
                field: bool = False) -> Fault:
        return cls("text", content=text, as_refusal_field=field)

    @classmethod
    def text(cls, text: str, completion_tokens: int | None = None) -> Fault:
        return cls("text", content=text, completion_tokens=completion_tokens)

    @classmethod
    def disconnect(cls) -> Fault:
        return cls("disconnect")

    @classmethod
    def reset(cls) -> Fault:
        """The connection reset (RST) once the whole request was read: a provider that took
        the request and then fell over, with no answer."""
        return cls("reset")


@dataclass(frozen=True)
class ToolCalls:
    """An assistant turn that calls tools (agent tests): `ToolCalls(("add", {"a": 1}), ...)`.

    Arguments go out as JSON text, as providers send them; `raw_arguments` sends a string as is
    (to script invalid JSON). `content` is optional text alongside the calls.
    """

    calls: tuple[tuple[str, dict[str, Any] | str], ...]
    content: str | None = None
    latency: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def __init__(self, *calls: tuple[str, dict[str, Any] | str], content: str | None = None,
                 latency: float = 0.0, prompt_tokens: int | None = None,
                 completion_tokens: int | None = None) -> None:
        object.__setattr__(self, "calls", tuple(calls))
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "latency", latency)
        object.__setattr__(self, "prompt_tokens", prompt_tokens)
        object.__setattr__(self, "completion_tokens", completion_tokens)

    def message(self, turn: int) -> dict[str, Any]:
        return {"role": "assistant", "content": self.content, "tool_calls": [
            {"id": f"call_{turn}_{k}", "type": "function",
             "function": {"name": name,
                          "arguments": args if isinstance(args, str) else json.dumps(args)}}
            for k, (name, args) in enumerate(self.calls)]}


Step = Verdict | Fault | ToolCalls


@dataclass
class Script:
    """Steps for the requests of one model whose prompt holds `rubric` and `candidate`."""

    model: str
    steps: list[Step]
    rubric: str | None
    candidate: str | None
    pos: int = 0
    tools: str | None = None
    """A substring of the request's `tools` (as JSON): a tool description it must offer."""

    def matches(self, model: str, text: str, tools: str = "") -> bool:
        if self.model not in ("*", model):
            return False
        if self.rubric is not None and self.rubric not in text:
            return False
        if self.tools is not None and self.tools not in tools:
            return False
        return self.candidate is None or self.candidate in text

    def next(self) -> Step:
        step = self.steps[min(self.pos, len(self.steps) - 1)]
        self.pos += 1
        return step


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    scripts: list[Script] = field(default_factory=list)
    bodies: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    paths: list[str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    prompt_tokens: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    completion_tokens: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    in_flight: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    peak: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    peers: set[tuple[str, int]] = field(default_factory=set)
    """Client (host, port) of every request: one per connection the clients opened."""
    arrived: threading.Event = field(default_factory=threading.Event)
    fingerprint: str | None = None
    """The `system_fingerprint` verdicts are answered with (`JudgeServer.fingerprint`)."""
    """Set whenever a request arrives (`JudgeServer.wait_for_requests`)."""


def _messages_text(body: dict[str, Any]) -> str:
    parts: list[str] = []
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(c.get("text", "")) for c in content if isinstance(c, dict))
    return "\n".join(parts)


def _tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
              ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "body is not JSON"}})
            return
        model = str(body.get("model", ""))
        text = _messages_text(body)
        st = self.server.state
        with st.lock:
            st.bodies[model].append(body)
            st.arrived.set()
            st.paths.append(self.path)
            st.headers.append({k.lower(): v for k, v in self.headers.items()})
            st.peers.add(self.client_address[:2])
            offered = json.dumps(body.get("tools") or [])
            script = next((s for s in reversed(st.scripts) if s.matches(model, text, offered)),
                          None)
            step = script.next() if script else None
            st.in_flight[model] += 1
            st.in_flight[""] += 1
            st.peak[model] = max(st.peak[model], st.in_flight[model])
            st.peak[""] = max(st.peak[""], st.in_flight[""])
        try:
            if step is None:
                self._send(404, {"error": {"message": f"model {model!r} is not scripted",
                                           "type": "invalid_request_error"}})
                return
            self._answer(model, text, step)
        finally:
            with st.lock:
                st.in_flight[model] -= 1
                st.in_flight[""] -= 1

    def _answer(self, model: str, prompt: str, step: Step) -> None:
        if isinstance(step, ToolCalls):
            self._tool_calls(model, prompt, step)
            return
        if isinstance(step, Fault) and step.kind in ("disconnect", "reset"):
            self.close_connection = True
            if step.kind == "reset":  # linger 0: close sends RST, not FIN
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
            self.connection.close()
            return
        if isinstance(step, Fault) and step.kind == "http":
            headers = {}
            if step.retry_after is not None:
                headers["Retry-After"] = f"{step.retry_after:g}"
            status = step.status or 503
            self._send(status, {"error": {"message": step.content or f"scripted {status}",
                                          "type": "scripted"}}, headers)
            return
        latency = step.latency
        if latency > 0:
            time.sleep(latency)
        content: str | None
        refusal: str | None = None
        p_tok: int | None = None
        c_tok: int | None = None
        if isinstance(step, Verdict):
            content, p_tok, c_tok = step.body(), step.prompt_tokens, step.completion_tokens
        elif step.as_refusal_field:
            content, refusal = None, step.content
        else:
            content, c_tok = step.content, step.completion_tokens
        p = p_tok if p_tok is not None else _tokens(prompt)
        c = c_tok if c_tok is not None else _tokens(content or refusal or "")
        st = self.server.state
        with st.lock:
            st.prompt_tokens[model] += p
            st.completion_tokens[model] += c
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if refusal is not None:
            message["refusal"] = refusal
        finish = "length" if isinstance(step, Fault) and step.kind == "truncated" else "stop"
        try:
            self._send(200, {
                "id": "chatcmpl-loopback", "object": "chat.completion",
                "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
                **({"system_fingerprint": st.fingerprint} if st.fingerprint else {}),
            })
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up (timeout); nothing to answer


    def _tool_calls(self, model: str, prompt: str, step: ToolCalls) -> None:
        if step.latency > 0:
            time.sleep(step.latency)
        st = self.server.state
        message = step.message(len(st.bodies.get(model, [])))
        p = step.prompt_tokens if step.prompt_tokens is not None else _tokens(prompt)
        c = step.completion_tokens if step.completion_tokens is not None else _tokens(
            json.dumps(message["tool_calls"]))
        with st.lock:
            st.prompt_tokens[model] += p
            st.completion_tokens[model] += c
        self._send(200, {
            "id": "chatcmpl-loopback", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
        })


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    state: _State


class JudgeServer(Loopback):
    """Context manager running the scripted server on 127.0.0.1 (see module docstring)."""

    _httpd: _Server

    def __init__(self, route: str | None = None) -> None:
        self.route = route
        """`fast` or `litellm`: which client route `gateway_env()` selects (None: the default)."""
        super().__init__(_Server, _Handler)
        self._httpd.state = _State()

    def fingerprint(self, value: str | None) -> None:
        """Answer verdicts with this `system_fingerprint` (None: none, the default), as OpenAI
        names the backend configuration that served a request."""
        self._httpd.state.fingerprint = value

    @property
    def base_url(self) -> str:
        return self.address + "/v1"

    def gateway_env(self, key: str = "sk-test-gateway-key") -> dict[str, str]:
        """An environment that routes every judge call to this server (over the route chosen
        when the server was made: `MCPTEST_LLM_ROUTE`, docs/judges.md "Speed")."""
        env = {"MCPTEST_JUDGE_BASE_URL": self.base_url, "MCPTEST_JUDGE_API_KEY": key}
        if self.route is not None:
            env["MCPTEST_LLM_ROUTE"] = "litellm" if self.route == "litellm" else "auto"
        return env

    def script(self, model: str, steps: list[Step] | Step, *, rubric: str | None = None,
               candidate: str | None = None, tools: str | None = None) -> None:
        seq = list(steps) if isinstance(steps, list) else [steps]
        if not seq:
            raise ValueError("a script needs at least one step")
        with self._httpd.state.lock:
            self._httpd.state.scripts.append(Script(model, seq, rubric, candidate,
                                                    tools=tools))

    def count(self, model: str | None = None) -> int:
        st = self._httpd.state
        with st.lock:
            if model is None:
                return sum(len(v) for v in st.bodies.values())
            return len(st.bodies.get(model, []))

    def wait_for_requests(self, n: int, timeout: float = 30.0) -> None:
        """Block until at least `n` requests have arrived (or fail after `timeout`)."""
        st = self._httpd.state
        deadline = time.monotonic() + timeout
        while self.count() < n:
            st.arrived.clear()
            if self.count() >= n:
                return
            left = deadline - time.monotonic()
            assert left > 0 and st.arrived.wait(left), f"fewer than {n} request(s) arrived"

    def requests(self, model: str | None = None) -> list[dict[str, Any]]:
        st = self._httpd.state
        with st.lock:
            if model is None:
                return [b for v in st.bodies.values() for b in v]
            return list(st.bodies.get(model, []))

    def models_seen(self) -> list[str]:
        with self._httpd.state.lock:
            return [m for m, v in self._httpd.state.bodies.items() if v]

    def request_headers(self) -> list[dict[str, str]]:
        with self._httpd.state.lock:
            return list(self._httpd.state.headers)

    def peak_in_flight(self, model: str | None = None) -> int:
        """Most requests (for `model`, or in all) the server was answering at one moment."""
        with self._httpd.state.lock:
            return self._httpd.state.peak.get(model or "", 0)

    def connections(self) -> int:
        """Connections the requests came over (keep-alive reuses one for many requests)."""
        with self._httpd.state.lock:
            return len(self._httpd.state.peers)

    def usage(self, model: str) -> tuple[int, int]:
        st = self._httpd.state
        with st.lock:
            return st.prompt_tokens.get(model, 0), st.completion_tokens.get(model, 0)

    def reset_counts(self) -> None:
        st = self._httpd.state
        with st.lock:
            st.bodies.clear()
            st.paths.clear()
            st.headers.clear()
            st.prompt_tokens.clear()
            st.completion_tokens.clear()
