"""Stand-ins for three routes that speak OpenAI's chat completions with their own differences,
each as its public documentation describes it:

- Azure OpenAI (learn.microsoft.com/azure/ai-foundry/openai/reference): the model is a
  *deployment* in the path, `POST /openai/deployments/{deployment}/chat/completions?api-version=…`,
  the key in an `api-key` header (never a bearer token), an `api-version` the resource serves;
  a content-filtered answer ends with `finish_reason: content_filter` and carries
  `content_filter_results`; errors `{"error": {code, message}}`, a 429 with `retry-after`.
  Reached as litellm documents: `azure/<deployment>` with AZURE_API_KEY, AZURE_API_BASE and
  AZURE_API_VERSION.
- OpenRouter (openrouter.ai/docs/api-reference, /use-cases/usage-accounting): `POST
  /api/v1/chat/completions` with a bearer key, model ids `<vendor>/<model>`; every answer names
  its `provider`, says `native_finish_reason` beside the normalised `finish_reason`, and bills in
  `usage.cost` (credits, US dollars); errors `{"error": {code, message, metadata}}`. Reached as
  `openrouter/<vendor>/<model>` with OPENROUTER_API_KEY (OPENROUTER_API_BASE for its address).
- vLLM's OpenAI-compatible server (docs.vllm.ai, "OpenAI-Compatible Server"): `POST
  /v1/chat/completions`, a bearer key only when started with `--api-key`; it serves the models
  it was started with and refuses others with a 404; its errors are flat
  `{"object": "error", "message", "type", "param", "code"}` with the status as `code`. It has no
  price and no refusal on the wire. Reached as `hosted_vllm/<model>` with HOSTED_VLLM_API_BASE.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from support.providers.base import Answer, Reply
from support.providers.openai_chat import ChatCompletions, OpenAIStandIn, chat_success

AZURE_VERSIONS = ("2024-10-21", "2025-04-01-preview")
"""`api-version` values Azure OpenAI's reference lists (GA and preview)."""


class AzureStandIn(OpenAIStandIn):
    family = "azure"
    key_env = "AZURE_API_KEY"
    base_env = "AZURE_API_BASE"
    base_path = ""
    api_version = AZURE_VERSIONS[0]

    def env(self) -> dict[str, str]:
        return {**super().env(), "AZURE_API_VERSION": self.api_version}

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        parts = urlsplit(path).path.split("/")
        if len(parts) == 6 and parts[1:3] == ["openai", "deployments"] and \
                parts[4:] == ["chat", "completions"]:
            return parts[3]
        return None

    def keyed(self, headers: dict[str, str]) -> bool:
        return headers.get("api-key") == self.key and "authorization" not in headers

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        version = parse_qs(urlsplit(path).query).get("api-version", [None])[0]
        out = [] if version in AZURE_VERSIONS else [
            f"Unsupported api-version {version!r}: see the supported versions"]
        body = {**body, "model": body.get("model") or "deployment"}  # the path names it
        wrong_key = "Access denied due to invalid subscription key or wrong API endpoint"
        return out + [wrong_key if p == "Incorrect API key provided" else p
                      for p in super().check(path, headers, body)]

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        headers = {"retry-after": f"{retry_after:g}"} if retry_after is not None else {}
        if status == 429:
            message = ("Requests to the ChatCompletions_Create Operation under Azure OpenAI API "
                       "have exceeded token rate limit of your current tier. Please retry after "
                       f"{retry_after or 1:g} seconds.")
        if status == 503 and message.startswith("scripted"):
            message = "The service is temporarily unable to process your request."
        code = {400: "BadRequest", 401: "401", 404: "DeploymentNotFound", 429: "429"}
        return Reply(status, {"error": {"code": code.get(status, "InternalServerError"),
                                        "message": message}}, headers)

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        out = chat_success(model, answer, lambda k: f"call_az{len(self.seen)}x{k}",
                           refusal_field=True)
        choice = out["choices"][0]
        filtered = answer.stop == "refusal"
        if filtered:  # Azure's content filter, not the model's refusal field
            choice["message"].update(content=None, refusal=None)
            choice["finish_reason"] = "content_filter"
        choice["content_filter_results"] = {
            k: {"filtered": filtered and k == "violence", "severity": "medium" if filtered
                and k == "violence" else "safe"}
            for k in ("hate", "self_harm", "sexual", "violence")}
        out["prompt_filter_results"] = [{"prompt_index": 0, "content_filter_results": {}}]
        self.bill(model, out["usage"]["prompt_tokens"], out["usage"]["completion_tokens"])
        return out


class OpenRouterStandIn(ChatCompletions):
    family = "openrouter"
    key_env = "OPENROUTER_API_KEY"
    base_env = "OPENROUTER_API_BASE"
    base_path = "/api/v1"
    price = (2e-6, 8e-6)
    """What it bills per prompt and completion token, in `usage.cost`."""

    def model_of(self, path: str, body: dict[str, Any]) -> str | None:
        return str(body.get("model", "")) if path == "/api/v1/chat/completions" else None

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out = [] if self.keyed(headers) else ["No auth credentials found"]
        model = body.get("model")
        if not isinstance(model, str) or "/" not in model:
            out.append(f"{model} is not a valid model ID")
        if not isinstance(body.get("messages"), list) or not body["messages"]:
            out.append("messages: at least one message is required")
        return out

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        headers = {"retry-after": f"{retry_after:g}"} if retry_after is not None else {}
        if status == 503 and message.startswith("scripted"):
            message = "No instances available"
        return Reply(status, {"error": {"code": status, "message": message,
                                        "metadata": {"provider_name": "OpenAI"}}}, headers)

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        out = chat_success(model, answer, lambda k: f"call_or{len(self.seen)}x{k}",
                           refusal_field=True)
        choice = out["choices"][0]
        native = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}.get(
            choice["finish_reason"], "stop")
        if answer.stop == "refusal":
            choice["finish_reason"], native = "content_filter", "content_filter"
        choice["native_finish_reason"] = native
        usage = out["usage"]
        usage["cost"] = round(usage["prompt_tokens"] * self.price[0]
                              + usage["completion_tokens"] * self.price[1], 10)
        out.update(provider="OpenAI", id="gen-loopback")
        self.bill(model, usage["prompt_tokens"], usage["completion_tokens"])
        return out

    def cost_billed(self) -> float:
        return sum(p * self.price[0] + c * self.price[1] for _, p, c in self.billed)


class VLLMStandIn(ChatCompletions):
    family = "hosted_vllm"
    key_env = ""
    base_env = "HOSTED_VLLM_API_BASE"

    def __init__(self, served: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.served = served
        self.finish_reason = True
        """False: answers carry `finish_reason: null` (a server that does not say why)."""

    def env(self) -> dict[str, str]:
        return {self.base_env: self.base_url}  # no --api-key: what most deployments run

    def check(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> list[str]:
        out = []
        if self.served and body.get("model") not in self.served:
            out.append(f"The model `{body.get('model')}` does not exist.")
        if not isinstance(body.get("messages"), list):
            out.append("[{'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field "
                       "required'}]")
        return out

    def rejection(self, problems: list[str]) -> Reply:
        status = 404 if problems[0].startswith("The model") else 400
        return self.error(status, "; ".join(problems))

    def error(self, status: int, message: str, *, retry_after: float | None = None,
              kind: str | None = None) -> Reply:
        kinds = {400: "BadRequestError", 404: "NotFoundError", 429: "TooManyRequests",
                 500: "InternalServerError", 503: "ServiceUnavailable"}
        return Reply(status, {"object": "error", "message": message,
                              "type": kinds.get(status, "InternalServerError"), "param": None,
                              "code": status})

    def success(self, model: str, body: dict[str, Any], answer: Answer) -> dict[str, Any]:
        if answer.stop == "refusal":  # no refusal on the wire: it is the model's text
            answer = Answer(answer.text, [], "stop", answer.prompt_tokens,
                            answer.completion_tokens)
        out = chat_success(model, answer, lambda k: f"chatcmpl-tool-{len(self.seen)}{k}",
                           refusal_field=False)
        out["choices"][0]["stop_reason"] = None
        if not self.finish_reason:
            out["choices"][0]["finish_reason"] = None
        self.bill(model, out["usage"]["prompt_tokens"], out["usage"]["completion_tokens"])
        return out
