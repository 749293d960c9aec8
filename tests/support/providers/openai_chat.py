"""A stand-in for OpenAI's Chat Completions API (`POST /v1/chat/completions`), as its reference
documents it (platform.openai.com/docs/api-reference/chat, /guides/structured-outputs,
/guides/reasoning, /guides/error-codes, /guides/rate-limits).

Checked: `Authorization: Bearer <key>`; `model` and `messages` with the documented roles;
every `tool` message answering a `tool_calls` id of the assistant turn before; reasoning models
(o-series, gpt-5) take `max_completion_tokens`, never `max_tokens`, and no `temperature` but the
default 1; `temperature` in 0..2; `response_format` as `text`, `json_object` (only when a message
mentions JSON) or `json_schema` with a `name` and, under `strict: true`, every object closing
`additionalProperties` and requiring all its properties; tools as
`{type: function, function: {name, parameters}}`.

Answered: `chat.completion` objects with `finish_reason` (`stop`, `length`, `tool_calls`), the
`refusal` field (content null), `usage` with `completion_tokens_details.reasoning_tokens` (a
reasoning model's thinking counts against `max_completion_tokens`: thinking that leaves no room
ends in `length` with empty content); errors as `{"error": {message, type, param, code}}`, a 429
with `retry-after` and the `x-ratelimit-*` headers.
"""

from __future__ import annotations

import json
import time
from typing import Any

from support.providers.base import Answer, Reply, StandIn

REASONING = ("o1", "o3", "o4", "gpt-5")
_ROLES = ("system", "developer", "user", "assistant", "tool")
_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
          429: "requests", 500: "server_error", 503: "server_error"}


def chat_text(body: dict[str, Any]) -> str:
    parts: list[str] = []
    for m in body.get("messages") or []:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str):
            parts.append(content)
        for c in content if isinstance(content, list) else []:
            if isinstance(c, dict) and isinstance(c.get("text"), str):
                parts.append(c["text"])
    return "\n".join(parts)


def tool_turns(messages: Any) -> list[str]:
    """Tool messages must answer a `tool_calls` id of the assistant message before them."""
    out: list[str] = []
    asked: set[str] = set()
    for k, m in enumerate(messages if isinstance(messages, list) else []):
        if not isinstance(m, dict):
            out.append(f"messages[{k}]: not an object")
            continue
        if m.get("role") == "assistant":
            asked = {str(tc.get("id")) for tc in m.get("tool_calls") or []
                     if isinstance(tc, dict)}
        elif m.get("role") == "tool" and m.get("tool_call_id") not in asked:
            out.append(f"messages[{k}]: a 'tool' message must respond to a preceding message "
                       "with 'tool_calls' (tool_call_id not found)")
    return out


def chat_success(model: str, answer: Answer, call_id: Any, *, refusal_field: bool,
                 max_out: int | None = None) -> dict[str, Any]:
    """A `chat.completion` object. Thinking counts against `max_out` first; an answer with no
    room left is cut to nothing (`length`)."""
    text, stop = answer.text, answer.stop
    if max_out is not None and answer.thinking_tokens + answer.completion_tokens > max_out:
        text, stop = "", "length"
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if refusal_field:
        message["refusal"] = None
        if stop == "refusal":
            message.update(content=None, refusal=text)
    if answer.calls:
        message["tool_calls"] = [
            {"id": call_id(k), "type": "function",
             "function": {"name": name, "arguments": args if isinstance(args, str)
                          else json.dumps(args)}}
            for k, (name, args) in enumerate(answer.calls)]
    finish = {"stop": "stop", "refusal": "stop", "length": "length", "tool": "tool_calls"}[stop]
    completion = answer.completion_tokens + answer.thinking_tokens
    usage: dict[str, Any] = {"prompt_tokens": answer.prompt_tokens,
                             "completion_tokens": completion,
                             "total_tokens": answer.prompt_tokens + completion}
    if refusal_field:
        usage["completion_tokens_details"] = {"reasoning_tokens": answer.thinking_tokens}
    return {"id": "chatcmpl-loopback", "object": "chat.completion", "created": int(time.time()),
            "model": model, "choices": [{"index": 0, "message": message, "logprobs": None,
                                         "finish_reason": finish}],
            "usage": usage}


class ChatCompletions(StandIn):
    """`POST /v1/chat/completions` with a bearer key: OpenAI's shape, which Mistral shares."""

    base_path = "/v1"

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        return str(body.get("model", "")) if path == "/v1/chat/completions" else None

    def prompt_text(self, body: dict[str, Any]) -> str:
        return chat_text(body)

    def keyed(self, headers: dict[str, str]) -> bool:
        return headers.get("authorization") == f"Bearer {self.key}"


class OpenAIStandIn(ChatCompletions):
    family = "openai"
    key_env = "OPENAI_API_KEY"
    base_env = "OPENAI_BASE_URL"

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out = [] if self.keyed(headers) else ["Incorrect API key provided"]
        model = body.get("model")
        if not isinstance(model, str) or not model:
            out.append("you must provide a model parameter")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            out.append("'messages' must be a non-empty array")
        roles = [m.get("role") for m in messages or [] if isinstance(m, dict)]
        out += [f"Invalid value: '{r}'. Supported roles: {', '.join(_ROLES)}"
                for r in roles if r not in _ROLES]
        out += tool_turns(messages)
        if str(model or "").lower().startswith(REASONING):
            if "max_tokens" in body:
                out.append("Unsupported parameter: 'max_tokens' is not supported with this "
                           "model. Use 'max_completion_tokens' instead.")
            if body.get("temperature", 1) != 1:
                out.append(f"Unsupported value: 'temperature' does not support "
                           f"{body['temperature']} with this model. Only the default (1) "
                           "value is supported.")
        t = body.get("temperature")
        if t is not None and not (isinstance(t, int | float) and 0 <= t <= 2):
            out.append(f"Invalid 'temperature': decimal above maximum value (2): {t}")
        out += _format_problems(body.get("response_format"), chat_text(body))
        for k, tool in enumerate(body.get("tools") or []):
            fn = tool.get("function") if isinstance(tool, dict) else None
            if not isinstance(tool, dict) or tool.get("type") != "function" or \
                    not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
                out.append(f"tools[{k}]: a tool is {{type: function, function: {{name, …}}}}")
        return out

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        headers: dict[str, str] = {}
        code = None
        if status == 429:
            code = "rate_limit_exceeded"
            headers.update({"x-ratelimit-limit-requests": "500",
                            "x-ratelimit-remaining-requests": "0",
                            "x-ratelimit-reset-requests": f"{retry_after or 1:g}s"})
            if retry_after is not None:
                headers["retry-after"] = f"{retry_after:g}"
        if status == 503 and message.startswith("scripted"):
            message = "The server is overloaded or not ready yet."
        return Reply(status, {"error": {"message": message, "type": _TYPES.get(status, "error"),
                                        "param": None, "code": code}}, headers)

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        out = chat_success(model, answer, lambda k: f"call_loopback{len(self.seen)}x{k}",
                           refusal_field=True, max_out=limit if isinstance(limit, int) else None)
        usage = out["usage"]
        self.bill(model, usage["prompt_tokens"], usage["completion_tokens"])
        return out


def _format_problems(fmt: Any, prompt: str) -> list[str]:
    if fmt is None:
        return []
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if kind not in ("text", "json_object", "json_schema"):
        return ["response_format.type: must be text, json_object or json_schema"]
    if kind == "json_object" and "json" not in prompt.lower():
        return ["'messages' must contain the word 'json' in some form, to use "
                "'response_format' of type 'json_object'."]
    if kind != "json_schema":
        return []
    spec = fmt.get("json_schema")
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or \
            not isinstance(spec.get("schema"), dict):
        return ["response_format.json_schema: needs `name` and `schema`"]
    return _strict_problems(spec["schema"], "schema") if spec.get("strict") else []


def _strict_problems(schema: Any, where: str) -> list[str]:
    """Strict mode: objects set `additionalProperties: false` and require every property."""
    if not isinstance(schema, dict):
        return []
    out: list[str] = []
    if schema.get("type") == "object":
        props = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            out.append(f"Invalid schema for response_format: In context=({where}), "
                       "'additionalProperties' is required to be supplied and to be false.")
        missing = sorted(set(props) - set(schema.get("required") or []))
        if missing:
            out.append(f"Invalid schema for response_format: In context=({where}), "
                       f"'required' is required to include every key; missing {missing}.")
        for name, sub in props.items():
            out += _strict_problems(sub, f"{where}, 'properties', '{name}'")
    return out
