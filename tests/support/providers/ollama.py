"""A stand-in for Ollama's API (docs.ollama.com/api), both endpoints litellm reaches:
`POST /api/chat` (litellm's `ollama_chat/`) and `POST /api/generate` (litellm's `ollama/`).

Checked: `model` is one the server has pulled (else a 404 `model "x" not found, try pulling it
first`); chat `messages` with the roles Ollama takes (`system`, `user`, `assistant`, `tool`),
tool-call `arguments` as a JSON object (Ollama's Go server cannot read a string there), tools as
`{type: function, function: {name, parameters}}`; generate's `prompt` a string; `options` with
`num_predict` an integer; `format` as `"json"` or a JSON schema object. Errors are
`{"error": "…"}`.

Answered: Ollama streams by default: without `"stream": false` the answer is NDJSON
(`application/x-ndjson`), one object per line, the last with `done: true`. An answer ends with
`done_reason` `stop` or `length`; Ollama stops with `length` exactly when it has generated
`num_predict` tokens, so a cut answer's `eval_count` is `num_predict`. Tool calls come with an
empty `""` content and arguments as an object. Token counts are `prompt_eval_count` and
`eval_count`; there is no cost, no refusal on the wire (a refusal is text), no retry hint.
"""

from __future__ import annotations

import json
from typing import Any

from support.providers.base import Answer, Reply, StandIn
from support.providers.openai_chat import chat_text

_ROLES = ("system", "user", "assistant", "tool")
CREATED = "2026-11-28T12:00:00.000000Z"


class OllamaStandIn(StandIn):
    family = "ollama"
    key_env = ""
    base_env = "OLLAMA_API_BASE"

    def __init__(self, pulled: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.pulled = pulled

    def env(self) -> dict[str, str]:
        return {self.base_env: self.base_url}  # no key: Ollama has none

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        return str(body.get("model", "")) if path in ("/api/chat", "/api/generate") else None

    def prompt_text(self, body: dict[str, Any]) -> str:
        if isinstance(body.get("prompt"), str):
            return str(body.get("system") or "") + "\n" + body["prompt"]
        return chat_text(body)

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        model = body.get("model")
        if self.pulled and model not in self.pulled:
            return [f'model "{model}" not found, try pulling it first']
        out: list[str] = []
        if path == "/api/generate" and not isinstance(body.get("prompt"), str):
            out.append("prompt must be a string")
        for k, m in enumerate(body.get("messages") or [] if path == "/api/chat" else []):
            if not isinstance(m, dict) or m.get("role") not in _ROLES:
                out.append(f"invalid message role at messages[{k}]")
                continue
            for tc in m.get("tool_calls") or []:
                args = (tc.get("function") or {}).get("arguments") if isinstance(tc, dict) \
                    else None
                if not isinstance(args, dict):
                    out.append("json: cannot unmarshal string into Go struct field "
                               "ToolCallFunction.messages.tool_calls.function.arguments of "
                               "type api.ToolCallFunctionArguments")
        options = body.get("options") or {}
        if not isinstance(options, dict) or not isinstance(options.get("num_predict", 0), int):
            out.append("json: cannot unmarshal into Go value of type int (options.num_predict)")
        fmt = body.get("format")
        if fmt is not None and fmt != "json" and not isinstance(fmt, dict):
            out.append(f"invalid format: {fmt!r}")
        for tool in body.get("tools") or []:
            fn = tool.get("function") if isinstance(tool, dict) else None
            if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
                out.append("invalid tool: a tool is {type: function, function: {name, …}}")
        return out

    def rejection(self, problems: list[str]) -> Reply:
        return self.error(404 if "not found" in problems[0] else 400, "; ".join(problems))

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        if status == 503 and message.startswith("scripted"):
            message = "server busy, please try again.  maximum pending requests exceeded"
        return Reply(status, {"error": message})

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> Any:
        """One object with `"stream": false`, else Ollama's stream (a list: NDJSON lines)."""
        chunks = self.answer(model, body, answer)
        return chunks if body.get("stream", True) is not False else chunks[-1]

    def answer(self, model: str, body: dict[str, Any], answer: Answer) -> list[dict[str, Any]]:
        """The answer as Ollama's stream of objects, the last one whole when not streamed."""
        limit = (body.get("options") or {}).get("num_predict")
        text = answer.text or ""
        evals = answer.completion_tokens
        reason = "stop"
        if answer.stop == "length":
            reason = "length"
            evals = limit if isinstance(limit, int) and limit > 0 else max(evals, 1)
        elif isinstance(limit, int) and 0 < limit <= evals:  # no room: cut where it stops
            reason, evals = "length", limit
            text = text[: limit * 4]
        self.bill(model, answer.prompt_tokens, evals)
        chat = "messages" in body
        done: dict[str, Any] = {
            "model": model, "created_at": CREATED, "done": True, "done_reason": reason,
            "total_duration": 4_000_000, "load_duration": 1_000_000,
            "prompt_eval_count": answer.prompt_tokens, "prompt_eval_duration": 1_000_000,
            "eval_count": evals, "eval_duration": 2_000_000}
        calls = [{"function": {"name": name, "arguments": args if isinstance(args, dict)
                               else json.loads(args)}} for name, args in answer.calls]
        streaming = body.get("stream", True) is not False
        if not chat and calls:  # generate has no tools: a model told of them answers in JSON
            name, args = answer.calls[0]
            text = json.dumps({"name": name, "arguments": args if isinstance(args, dict)
                               else json.loads(args)})
            calls = []
        pieces = [text[i:i + 8] for i in range(0, len(text), 8)] if not calls else []
        if not chat:
            head = [{"model": model, "created_at": CREATED, "response": p, "done": False}
                    for p in pieces] if streaming else []
            return [*head, {**done, "response": "" if streaming else text,
                            "context": [1, 2, 3]}]
        message: dict[str, Any] = {"role": "assistant", "content": "" if calls else text}
        if calls:
            message["tool_calls"] = calls
        if not streaming:
            return [{**done, "message": message}]
        chunks: list[dict[str, Any]] = [
            {"model": model, "created_at": CREATED,
             "message": {"role": "assistant", "content": p}, "done": False} for p in pieces]
        if calls:
            chunks.append({"model": model, "created_at": CREATED, "done": False,
                           "message": {"role": "assistant", "content": "",
                                       "tool_calls": calls}})
        chunks.append({**done, "message": {"role": "assistant", "content": ""}})
        return chunks

