"""A stand-in for Mistral's chat completions (`POST /v1/chat/completions`), as its reference
documents it (docs.mistral.ai/api, and the OpenAPI description it is built from).

Checked: `Authorization: Bearer <key>`; the body against Mistral's own published schema of a
chat request (`tests/data/providers/mistral-chat-request.json`, extracted from
mistralai/platform-docs-public's openapi.yaml: no field it does not list, `temperature` in
0..1.5, `response_format` as `text`, `json_object` or `json_schema` with `name` and `schema`,
tools, roles); tool-call ids of nine letters and digits; every `tool` message answering a call of
the assistant turn before.

Answered: `chat.completion` objects with `finish_reason` `stop`, `length`, `model_length` or
`tool_calls` (Mistral has no `refusal` field: a refusal is text), nine-character tool-call ids,
`usage`; a request that breaks the schema gets a 422 with `detail`, other errors
`{"object": "error", "message", "type", "code"}`. Mistral documents no retry hint: a 429 carries
none.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from support.providers.base import Answer, Reply
from support.providers.openai_chat import ChatCompletions, chat_success, tool_turns

SCHEMA = Path(__file__).resolve().parents[2] / "data" / "providers" / "mistral-chat-request.json"
_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


class MistralStandIn(ChatCompletions):
    family = "mistral"
    key_env = "MISTRAL_API_KEY"
    base_env = "MISTRAL_API_BASE"
    cut_reason = "length"
    """How a cut answer ends: `length` (max_tokens) or `model_length` (the context window)."""

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out = [] if self.keyed(headers) else ["Unauthorized"]
        out += [f"{'.'.join(map(str, e.absolute_path)) or 'body'}: {e.message}"[:300]
                for e in _validator().iter_errors(body)]
        for m in body.get("messages") or []:
            for tc in (m.get("tool_calls") or []) if isinstance(m, dict) else []:
                if not _CALL_ID.fullmatch(str(tc.get("id"))):
                    out.append(f"Tool call id was {tc.get('id')} but must be a-z, A-Z, 0-9, "
                               "with a length of 9.")
        return out + tool_turns(body.get("messages"))

    def rejection(self, problems: list[str]) -> Reply:
        if problems == ["Unauthorized"]:
            return self.error(401, "Unauthorized")
        return Reply(422, {"detail": [{"type": "value_error", "loc": ["body"], "msg": p}
                                      for p in problems]})

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        if status == 503 and message.startswith("scripted"):
            message = "Service unavailable."
        return Reply(status, {"object": "error", "message": message,
                              "type": "invalid_request_error" if status < 500 else "api_error",
                              "param": None, "code": str(status)})

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        n = len(self.seen)
        out = chat_success(model, answer, lambda k: f"mc{n:05d}x{k}"[:9].ljust(9, "0"),
                           refusal_field=False)
        if answer.stop == "length":
            out["choices"][0]["finish_reason"] = self.cut_reason
        self.bill(model, answer.prompt_tokens, answer.completion_tokens)
        return out
