"""A stand-in for the Gemini API's `generateContent`
(`POST /v1beta/models/{model}:generateContent`), as its reference documents it
(ai.google.dev/api/generate-content, /gemini-api/docs/structured-output, /thinking,
/function-calling, /troubleshooting and google.rpc's error model).

Checked: the key in `x-goog-api-key` (or `?key=`); only the request's documented fields, in
either spelling the JSON mapping accepts (`generationConfig` or `generation_config`); non-empty
`contents` of `user`/`model` turns; `systemInstruction` as `{parts: [{text}]}`; `temperature` in
0..2; `responseSchema` or `responseJsonSchema` (not both) only with `responseMimeType:
application/json`; `thinkingConfig.thinkingBudget` within the model's range (2.5 Pro 128..32768,
Flash 0..24576, Flash-Lite 0 or 512..24576, -1 dynamic; none before 2.5); tools as
`functionDeclarations`; every `functionResponse` answering a `functionCall` of the turn before.

Answered: `candidates[0]` with `content.parts` (`text`, a `thought: true` summary part when
`includeThoughts`, `functionCall`), `finishReason` `STOP`, `MAX_TOKENS` or `SAFETY` (no content),
`usageMetadata` with `thoughtsTokenCount`. A 2.5 model thinks before it answers and its thinking
counts against `maxOutputTokens` (up to 8192 tokens when no budget is set): thinking that leaves
the answer no room ends in `MAX_TOKENS` with no text. Errors are google.rpc statuses; a 429
carries its retry delay only in the body, as `RetryInfo.retryDelay` in `error.details`.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from support.providers.base import Answer, Reply, StandIn

_PATH = re.compile(r"/v1beta/models/([^/:]+):generateContent")
_TOP = ("contents", "tools", "toolConfig", "safetySettings", "systemInstruction",
        "generationConfig", "cachedContent")
_CONFIG = ("stopSequences", "responseMimeType", "responseSchema", "responseJsonSchema",
           "responseModalities", "candidateCount", "maxOutputTokens", "temperature", "topP",
           "topK", "seed", "presencePenalty", "frequencyPenalty", "responseLogprobs",
           "logprobs", "speechConfig", "thinkingConfig", "mediaResolution")
_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
           429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
           504: "DEADLINE_EXCEEDED"}
DYNAMIC_THINKING = 8192


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _fields(obj: Any, allowed: tuple[str, ...], where: str) -> tuple[dict[str, Any], list[str]]:
    """`obj` with its keys in lowerCamelCase, and the keys the API does not know."""
    if not isinstance(obj, dict):
        return {}, [] if obj is None else [f"{where}: must be an object"]
    out = {_camel(k): v for k, v in obj.items()}
    return out, [f'Invalid JSON payload received. Unknown name "{k}" at \'{where}\': Cannot '
                 "find field." for k in obj if _camel(k) not in allowed]


def _call(part: Any, kind: str) -> str | None:
    """The function name of a `functionCall`/`functionResponse` part (either spelling)."""
    inner = part.get(kind, part.get(_snake(kind))) if isinstance(part, dict) else None
    return str(inner.get("name")) if isinstance(inner, dict) else None


def _snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def thinking_range(model: str) -> tuple[int, int] | None:
    if "2.5" not in model:
        return None
    if "flash-lite" in model:
        return (512, 24576)
    return (1, 24576) if "flash" in model else (128, 32768)


class GeminiStandIn(StandIn):
    family = "gemini"
    key_env = "GEMINI_API_KEY"
    base_env = "GEMINI_API_BASE"
    base_path = "/v1beta"

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        m = _PATH.fullmatch(urlsplit(path).path)
        return m.group(1) if m else None

    def prompt_text(self, body: dict[str, Any]) -> str:
        turns = [body.get("systemInstruction") or body.get("system_instruction") or {},
                 *(body.get("contents") or [])]
        return "\n".join(str(p.get("text")) for t in turns if isinstance(t, dict)
                         for p in t.get("parts") or [] if isinstance(p, dict) and "text" in p)

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        key = headers.get("x-goog-api-key") or parse_qs(urlsplit(path).query).get("key", [""])[0]
        out = [] if key == self.key else ["API key not valid. Please pass a valid API key."]
        top, bad = _fields(body, _TOP, "")
        out += bad
        out += self._contents(top.get("contents"))
        system = top.get("systemInstruction")
        if system is not None and not (isinstance(system, dict)
                                       and isinstance(system.get("parts"), list)):
            out.append("systemInstruction: must be a Content with parts")
        config, bad = _fields(top.get("generationConfig"), _CONFIG, "generation_config")
        out += bad + self._config(str(self.model_of(path, body)), config)
        for k, tool in enumerate(top.get("tools") or []):
            decls = tool.get("functionDeclarations", tool.get("function_declarations")) \
                if isinstance(tool, dict) else None
            if not isinstance(decls, list) or not all(isinstance(d, dict) and "name" in d
                                                      for d in decls):
                out.append(f"tools[{k}]: a tool is {{functionDeclarations: [{{name, …}}]}}")
        return out

    @staticmethod
    def _contents(contents: Any) -> list[str]:
        if not isinstance(contents, list) or not contents:
            return ["contents is not specified"]
        out: list[str] = []
        called: set[str | None] = set()
        for k, turn in enumerate(contents):
            role = turn.get("role") if isinstance(turn, dict) else None
            parts = turn.get("parts") if isinstance(turn, dict) else None
            if role not in ("user", "model") or not isinstance(parts, list) or not parts:
                out.append(f"contents[{k}]: a turn is {{role: user|model, parts: [...]}}")
                continue
            answered = {_call(p, "functionResponse") for p in parts}
            if answered - called - {None}:
                out.append(f"contents[{k}]: a functionResponse must answer a functionCall "
                           "of the turn before")
            called = {_call(p, "functionCall") for p in parts}
        return out

    @staticmethod
    def _config(model: str, config: dict[str, Any]) -> list[str]:
        out: list[str] = []
        t = config.get("temperature")
        if t is not None and not (isinstance(t, int | float) and 0 <= t <= 2):
            out.append("generation_config.temperature: must be within [0.0, 2.0]")
        schemas = [k for k in ("responseSchema", "responseJsonSchema") if k in config]
        if len(schemas) > 1:
            out.append("responseSchema and responseJsonSchema cannot both be set")
        if schemas and config.get("responseMimeType") != "application/json":
            out.append("response_mime_type: a response schema needs application/json")
        thinking, bad = _fields(config.get("thinkingConfig"),
                                ("thinkingBudget", "includeThoughts", "thinkingLevel"),
                                "generation_config.thinking_config")
        out += bad
        budget = thinking.get("thinkingBudget")
        span = thinking_range(model)
        if thinking and span is None:
            out.append("thinking is not supported by this model")
        elif budget is not None and span is not None and budget != -1 and not (
                span[0] <= budget <= span[1] or (budget == 0 and "flash" in model)):
            out.append(f"thinking_budget: must be within {span[0]}..{span[1]} for {model}")
        return out

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        details: list[dict[str, Any]] = []
        if status == 429:
            details.append({"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                            "violations": [{"quotaMetric": "generativelanguage.googleapis.com/"
                                            "generate_content_requests"}]})
            if retry_after is not None:
                details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                "retryDelay": f"{retry_after:g}s"})
        if status == 503 and message.startswith("scripted"):
            message = "The model is overloaded. Please try again later."
        if message.startswith("API key not valid"):
            details.append({"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                            "reason": "API_KEY_INVALID", "domain": "googleapis.com"})
        error: dict[str, Any] = {"code": status, "message": message,
                                 "status": _STATUS.get(status, "UNKNOWN")}
        if details:
            error["details"] = details
        return Reply(status, {"error": error})

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        config, _ = _fields(body.get("generationConfig", body.get("generation_config")),
                            _CONFIG, "")
        thinking, _ = _fields(config.get("thinkingConfig"), (), "")
        budget = thinking.get("thinkingBudget")
        thought = 0
        if thinking_range(model) is not None:
            cap = DYNAMIC_THINKING if budget in (None, -1) else budget
            thought = min(answer.thinking_tokens, cap)
        limit = config.get("maxOutputTokens")
        parts: list[dict[str, Any]] = []
        if thought and thinking.get("includeThoughts"):
            parts.append({"text": "**Weighing the rubric** I compare the candidate with it.",
                          "thought": True})
        finish = {"stop": "STOP", "length": "MAX_TOKENS", "tool": "STOP",
                  "refusal": "SAFETY"}[answer.stop]
        used = answer.completion_tokens
        if isinstance(limit, int) and thought + used > limit:
            finish, used = "MAX_TOKENS", max(0, limit - thought)
        elif answer.text and finish != "SAFETY":
            parts.append({"text": answer.text})
        parts += [{"functionCall": {"name": name, "args": args if isinstance(args, dict)
                                    else {}}} for name, args in answer.calls]
        candidate: dict[str, Any] = {"finishReason": finish, "index": 0}
        if finish == "SAFETY":
            candidate["safetyRatings"] = [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                                           "probability": "HIGH", "blocked": True}]
        elif parts:
            candidate["content"] = {"role": "model", "parts": parts}
        usage = {"promptTokenCount": answer.prompt_tokens, "candidatesTokenCount": used,
                 "totalTokenCount": answer.prompt_tokens + used + thought}
        if thought:
            usage["thoughtsTokenCount"] = thought
        self.bill(model, answer.prompt_tokens, used + thought)
        return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": model,
                "responseId": "loopback"}
