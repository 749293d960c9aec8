"""A stand-in for Anthropic's Messages API (`POST /v1/messages`), as its reference documents it
(platform.claude.com/docs/en/api/messages, /api/errors, /build-with-claude/handling-stop-reasons
and /build-with-claude/structured-outputs).

Checked: `x-api-key` and `anthropic-version`; `model`, `max_tokens` and non-empty `messages`;
no `system` role inside `messages` (the system prompt is the top-level `system`); only the
Messages API's own top-level fields; `temperature` in 0..1, and 1 (or none) with extended
thinking or on Claude Opus 4.7, which accepts no other; `thinking.budget_tokens` at least 1024
and below `max_tokens`; tools as `{name, description, input_schema}`; every `tool_result`
answering a `tool_use` of the turn before; `output_format` only with the
`structured-outputs-2025-11-13` beta, a JSON schema whose objects set
`additionalProperties: false` and use no numeric bounds (`minimum`, `maximum` …).

Answered: content blocks (`text`, `tool_use` with a `toolu_` id), `stop_reason` (`end_turn`,
`max_tokens`, `tool_use`, `refusal` with whatever text came before it), `usage.input_tokens/output_tokens`; errors as
`{"type": "error", "error": {"type": …, "message": …}}` with `retry-after` on a 429 and
`overloaded_error` as 529.
"""

from __future__ import annotations

from typing import Any

from support.providers.base import Answer, Reply, StandIn

VERSION = "2023-06-01"
STRUCTURED_BETA = "structured-outputs-2025-11-13"
_FIELDS = frozenset({
    "model", "messages", "max_tokens", "system", "temperature", "top_p", "top_k",
    "stop_sequences", "stream", "metadata", "tools", "tool_choice", "thinking",
    "output_format", "service_tier", "container", "mcp_servers", "context_management"})
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
           "minLength", "maxLength")
_ERRORS = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
           404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
           500: "api_error", 529: "overloaded_error"}


class AnthropicStandIn(StandIn):
    family = "anthropic"
    key_env = "ANTHROPIC_API_KEY"
    base_env = "ANTHROPIC_API_BASE"
    base_path = ""  # litellm appends /v1/messages

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        return str(body.get("model", "")) if path.split("?")[0] == "/v1/messages" else None

    def overload_status(self) -> int:
        return 529

    def prompt_text(self, body: dict[str, Any]) -> str:
        system = body.get("system")
        parts = [system] if isinstance(system, str) else [
            b.get("text", "") for b in system or [] if isinstance(b, dict)]
        for m in body.get("messages") or []:
            content = m.get("content") if isinstance(m, dict) else None
            if isinstance(content, str):
                parts.append(content)
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    parts.append(block["text"])
        return "\n".join(p for p in parts if isinstance(p, str))

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out: list[str] = []
        if headers.get("x-api-key") != self.key:
            out.append("x-api-key: missing or not the key")
        if headers.get("anthropic-version") != VERSION:
            out.append(f"anthropic-version: must be {VERSION}")
        out += [f"{k}: Extra inputs are not permitted" for k in body if k not in _FIELDS]
        model = body.get("model")
        if not isinstance(model, str) or not model:
            out.append("model: Field required")
        if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
            out.append("max_tokens: Field required (an integer >= 1)")
        out += self._messages(body.get("messages"))
        out += self._sampling(str(model or ""), body)
        for k, tool in enumerate(body.get("tools") or []):
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or \
                    not isinstance(tool.get("input_schema"), dict) or "function" in tool:
                out.append(f"tools.{k}: a tool is {{name, description, input_schema}}")
        fmt = body.get("output_format")
        if fmt is not None:
            if STRUCTURED_BETA not in headers.get("anthropic-beta", ""):
                out.append(f"output_format: requires the {STRUCTURED_BETA} beta header")
            if not isinstance(fmt, dict) or fmt.get("type") != "json_schema" or \
                    not isinstance(fmt.get("schema"), dict):
                out.append("output_format: must be {type: json_schema, schema}")
            else:
                out += _schema_problems(fmt["schema"], "output_format.schema")
        return out

    def _messages(self, messages: Any) -> list[str]:
        if not isinstance(messages, list) or not messages:
            return ["messages: at least one message is required"]
        out: list[str] = []
        asked: set[Any] = set()
        for k, m in enumerate(messages):
            role = m.get("role") if isinstance(m, dict) else None
            if role not in ("user", "assistant"):
                out.append(f"messages.{k}.role: Input should be 'user' or 'assistant' (the "
                           "system prompt is the top-level `system` parameter)")
                continue
            blocks = m["content"] if isinstance(m.get("content"), list) else []
            answered = {b.get("tool_use_id") for b in blocks
                        if isinstance(b, dict) and b.get("type") == "tool_result"}
            if answered - asked:
                out.append(f"messages.{k}: tool_result blocks must answer a tool_use of the "
                           "previous message")
            asked = {b.get("id") for b in blocks
                     if isinstance(b, dict) and b.get("type") == "tool_use"}
        return out

    def _sampling(self, model: str, body: dict[str, Any]) -> list[str]:
        temperature = body.get("temperature")
        thinking = body.get("thinking")
        out: list[str] = []
        if temperature is not None and not (isinstance(temperature, int | float)
                                            and 0 <= temperature <= 1):
            out.append("temperature: Input should be less than or equal to 1")
        if "opus-4-7" in model and temperature not in (None, 1):
            out.append("temperature: `temperature` is deprecated for this model")
        if isinstance(thinking, dict) and thinking.get("type") == "enabled":
            budget = thinking.get("budget_tokens")
            if temperature not in (None, 1):
                out.append("temperature may only be set to 1 when thinking is enabled")
            if not isinstance(budget, int) or budget < 1024 or \
                    budget >= int(body.get("max_tokens") or 0):
                out.append("thinking.budget_tokens: must be >= 1024 and less than max_tokens")
        return out

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        headers = {"request-id": "req_loopback"}
        if retry_after is not None:
            headers["retry-after"] = f"{retry_after:g}"
        kind = _ERRORS.get(status, "api_error") if kind != "not_found" else "not_found_error"
        if status == 529 and message.startswith("scripted"):
            message = "Overloaded"
        return Reply(status, {"type": "error", "error": {"type": kind, "message": message},
                              "request_id": "req_loopback"}, headers)

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if answer.text:
            content.append({"type": "text", "text": answer.text})
        for k, (name, args) in enumerate(answer.calls):
            content.append({"type": "tool_use", "id": f"toolu_loopback{len(self.seen)}x{k}",
                            "name": name, "input": args if isinstance(args, dict) else {}})
        self.bill(model, answer.prompt_tokens, answer.completion_tokens)
        stop = {"stop": "end_turn", "length": "max_tokens", "tool": "tool_use",
                "refusal": "refusal"}[answer.stop]
        return {"id": "msg_loopback", "type": "message", "role": "assistant", "model": model,
                "content": content, "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": answer.prompt_tokens,
                          "output_tokens": answer.completion_tokens}}


def _schema_problems(schema: Any, where: str) -> list[str]:
    """What Anthropic's structured outputs refuse in a JSON schema (its "JSON Schema
    limitations"): objects must close `additionalProperties`, numbers and strings take no
    bounds."""
    if not isinstance(schema, dict):
        return []
    out: list[str] = []
    kind = schema.get("type")
    if kind == "object" and schema.get("additionalProperties") is not False:
        out.append(f"{where}: For 'object' type, 'additionalProperties' must be explicitly "
                   "set to false")
    for bound in _BOUNDS:
        if bound in schema:
            out.append(f"{where}: For '{kind}' type, property '{bound}' is not supported")
    for name, sub in (schema.get("properties") or {}).items():
        out += _schema_problems(sub, f"{where}.properties.{name}")
    if isinstance(schema.get("items"), dict):
        out += _schema_problems(schema["items"], f"{where}.items")
    return out
