"""A stand-in for Amazon Bedrock's Converse API (`POST /model/{modelId}/converse`), as its API
reference documents it (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse,
/userguide/conversation-inference, and SigV4 in /IAM/latest/UserGuide/reference_sigv-create-
signed-request).

Checked: every request signed with Signature Version 4 for service `bedrock` in the stand-in's
region with its access key, the signature recomputed from what arrived with botocore's own
signer (`SigV4Auth`, which litellm's botocore brings) and compared; `messages` alternating
`user`/`assistant` with content blocks (`text`, `toolUse`, `toolResult`), every `toolResult`
answering a `toolUse` of the turn before, tool-use ids `[a-zA-Z0-9_-]{1,64}`; `system` as text
blocks; `inferenceConfig` with only its fields; tools as `toolSpec` with `inputSchema.json`.

Answered: `output.message.content` blocks, `stopReason` (`end_turn`, `tool_use`, `max_tokens`,
`guardrail_intervened` with the guardrail's canned text), `usage.inputTokens/outputTokens`;
a tool `toolChoice` forces (litellm's structured output) is answered with that tool's input.
Errors carry `x-amzn-ErrorType` and `{"message": …}`: 400 `ValidationException`, 403
`UnrecognizedClientException`/`InvalidSignatureException`, 429 `ThrottlingException`, 500
`InternalServerException`, 503 `ServiceUnavailableException`; Bedrock sends no retry hint.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from support.providers.base import Answer, Reply, StandIn

_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_INFERENCE = frozenset({"maxTokens", "temperature", "topP", "stopSequences"})
_ERRORS = {400: "ValidationException", 403: "AccessDeniedException", 404:
           "ResourceNotFoundException", 429: "ThrottlingException", 500:
           "InternalServerException", 503: "ServiceUnavailableException"}
GUARDRAIL_TEXT = "Sorry, the model cannot answer this question."


class BedrockStandIn(StandIn):
    family = "bedrock"
    key_env = "AWS_SECRET_ACCESS_KEY"
    base_env = "AWS_BEDROCK_RUNTIME_ENDPOINT"
    region = "eu-west-1"
    access_key = "AKIAIOSFODNN7LOOPBCK"

    def env(self) -> dict[str, str]:
        return {"AWS_ACCESS_KEY_ID": self.access_key, "AWS_SECRET_ACCESS_KEY": self.key,
                "AWS_REGION_NAME": self.region, self.base_env: self.base_url}

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        parts = urlsplit(path).path.split("/")
        if len(parts) == 4 and parts[1] == "model" and parts[3] == "converse":
            return unquote(parts[2])
        return None

    def prompt_text(self, body: dict[str, Any]) -> str:
        parts = [b.get("text", "") for b in body.get("system") or [] if isinstance(b, dict)]
        for m in body.get("messages") or []:
            for b in m.get("content") or [] if isinstance(m, dict) else []:
                if isinstance(b, dict) and isinstance(b.get("text"), str):
                    parts.append(b["text"])
                result = b.get("toolResult") if isinstance(b, dict) else None
                if isinstance(result, dict):
                    parts.append(json.dumps(result.get("content")))
        return "\n".join(parts)

    # ------------------------------------------------------------------ SigV4

    def signature_problem(self, path: str, headers: dict[str, str], raw: bytes) -> str | None:
        """Why the request's SigV4 signature is not this stand-in's, or None when it is."""
        auth = headers.get("authorization", "")
        m = re.fullmatch(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/"
                         r"aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})", auth)
        if m is None:
            return "Missing Authentication Token"
        key, day, region, service, signed, signature = m.groups()
        if key != self.access_key:
            return "The security token included in the request is invalid."
        if (region, service) != (self.region, "bedrock"):
            return f"Credential should be scoped to a valid region and service ({region}/{service})"
        amz_date = headers.get("x-amz-date", "")
        if not amz_date.startswith(day):
            return "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date"
        names = signed.split(";")
        request = AWSRequest(method="POST", url=self.address + path, data=raw,
                             headers={n: headers.get(n, "") for n in names})
        request.context["timestamp"] = amz_date
        signer = SigV4Auth(Credentials(self.access_key, self.key), "bedrock", self.region)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        if expected != signature:
            return ("The request signature we calculated does not match the signature you "
                    "provided. Check your AWS Secret Access Key and signing method.")
        return None

    def handle(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        problem = self.signature_problem(path, headers, raw)
        if problem is not None:
            with self._lock:
                self.unsigned.append(problem)
            kind = "InvalidSignatureException" if "signature" in problem else \
                "UnrecognizedClientException"
            return self.error(403, problem, kind=kind)
        return super().handle(path, headers, raw)

    @property
    def unsigned(self) -> list[str]:
        if not hasattr(self, "_unsigned"):
            self._unsigned: list[str] = []
        return self._unsigned

    # ------------------------------------------------------------------ the body

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out: list[str] = []
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return ["A conversation must start with a user message."]
        asked: set[str] = set()
        for k, m in enumerate(messages):
            role = m.get("role") if isinstance(m, dict) else None
            if role != ("user" if k % 2 == 0 else "assistant"):
                out.append("A conversation must alternate between user and assistant roles.")
                break
            for b in m.get("content") or []:
                use, result = b.get("toolUse"), b.get("toolResult")
                if isinstance(use, dict):
                    if not _ID.fullmatch(str(use.get("toolUseId"))):
                        out.append(f"messages.{k}.content.toolUse.toolUseId: failed to satisfy "
                                   "constraint: Member must satisfy regular expression pattern: "
                                   "[a-zA-Z0-9_-]+")
                    asked.add(str(use.get("toolUseId")))
                if isinstance(result, dict) and result.get("toolUseId") not in asked:
                    out.append("The toolResult blocks must match the toolUse blocks of the "
                               "previous assistant turn.")
        extra = set(body.get("inferenceConfig") or {}) - _INFERENCE
        if extra:
            out.append(f"inferenceConfig: extraneous key [{sorted(extra)[0]}] is not permitted")
        for t in (body.get("toolConfig") or {}).get("tools") or []:
            spec = t.get("toolSpec") if isinstance(t, dict) else None
            if not isinstance(spec, dict) or not isinstance(
                    (spec.get("inputSchema") or {}).get("json"), dict):
                out.append("toolConfig.tools: a tool is {toolSpec: {name, inputSchema: {json}}}")
        return out

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        name = kind if kind and kind[0].isupper() else _ERRORS.get(status, "InternalServerException")
        if status == 503 and message.startswith("scripted"):
            message = "Too many connections, please wait before trying again."
        if status == 500 and message.startswith("scripted"):
            message = "The server encountered an internal error while processing the request."
        return Reply(status, {"message": message},
                     {"x-amzn-ErrorType": f"{name}:http://internal.amazon.com/coral/com.amazon.bedrock/"})

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        forced = ((body.get("toolConfig") or {}).get("toolChoice") or {}).get("tool")
        content: list[dict[str, Any]] = []
        stop = {"stop": "end_turn", "length": "max_tokens", "tool": "tool_use",
                "refusal": "guardrail_intervened"}[answer.stop]
        if stop == "guardrail_intervened":
            content.append({"text": GUARDRAIL_TEXT})
        elif isinstance(forced, dict) and answer.text and not answer.calls and stop == "end_turn":
            content.append({"toolUse": {"toolUseId": f"tooluse_{len(self.seen)}",
                                        "name": forced.get("name"),
                                        "input": json.loads(answer.text)}})
            stop = "tool_use"
        elif answer.text:
            content.append({"text": answer.text})
        for k, (name, args) in enumerate(answer.calls):
            content.append({"toolUse": {"toolUseId": f"tooluse_{len(self.seen)}x{k}",
                                        "name": name, "input": args if isinstance(args, dict)
                                        else json.loads(args)}})
        self.bill(model, answer.prompt_tokens, answer.completion_tokens)
        out: dict[str, Any] = {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": stop,
            "usage": {"inputTokens": answer.prompt_tokens,
                      "outputTokens": answer.completion_tokens,
                      "totalTokens": answer.prompt_tokens + answer.completion_tokens},
            "metrics": {"latencyMs": 12}}
        if stop == "guardrail_intervened":
            out["trace"] = {"guardrail": {"outputAssessments": {}}}
        return out
