"""Model families from model ids: vendor names, routing prefixes, digit guards, strict_panel."""

from __future__ import annotations

import pytest

from mcptest.suite.families import (
    model_family,
    same_family,
    shared_family_jurors,
    strict_panel_violations,
)

FAMILIES: list[tuple[str, str | None]] = [
    # anthropic
    ("claude-3-5-sonnet-20241022", "anthropic"),
    ("claude-opus-4-1", "anthropic"),
    ("claude3-haiku", "anthropic"),
    ("anthropic/claude-3-haiku-20240307", "anthropic"),
    ("bedrock/anthropic.claude-3-sonnet-20240229-v1:0", "anthropic"),
    ("bedrock/us.anthropic.claude-3-5-sonnet-20241022-v2:0", "anthropic"),
    ("vertex_ai/claude-3-5-sonnet@20240620", "anthropic"),
    ("openrouter/anthropic/claude-3.5-sonnet", "anthropic"),
    # openai
    ("gpt-4o", "openai"),
    ("gpt-4o-mini", "openai"),
    ("openai/gpt-4.1", "openai"),
    ("gpt4o", "openai"),
    ("chatgpt-4o-latest", "openai"),
    ("o1", "openai"),
    ("o1-preview", "openai"),
    ("o3-mini", "openai"),
    ("openai/o4-mini", "openai"),
    ("text-davinci-003", "openai"),
    ("text-embedding-3-small", "openai"),
    ("davinci-002", "openai"),
    ("azure/gpt-4o", "openai"),
    ("azure/my-prod-deployment", "openai"),  # Azure OpenAI deployment names are free-form
    ("gpt-oss-120b", "openai"),
    # google
    ("gemini-1.5-pro", "google"),
    ("gemini/gemini-2.0-flash", "google"),
    ("vertex_ai/gemini-1.5-flash-002", "google"),
    ("gemma-2-9b-it", "google"),
    ("ollama/gemma3:4b", "google"),
    ("palm-2", "google"),
    ("palm2", "google"),
    ("chat-bison@001", "google"),
    ("text-bison", "google"),  # PaLM, despite the OpenAI-style text- prefix
    ("openrouter/google/gemma-2-27b-it", "google"),
    # mistral
    ("mistral-large-latest", "mistral"),
    ("mistral/mistral-small-latest", "mistral"),
    ("open-mistral-nemo", "mistral"),
    ("open-mixtral-8x22b", "mistral"),
    ("codestral-latest", "mistral"),
    ("magistral-medium-2506", "mistral"),
    ("ministral-8b-latest", "mistral"),
    ("devstral-small-2505", "mistral"),
    ("pixtral-12b-2409", "mistral"),
    ("together_ai/mistralai/Mixtral-8x7B-Instruct-v0.1", "mistral"),
    ("bedrock/mistral.mistral-7b-instruct-v0:2", "mistral"),
    # meta
    ("llama-3.1-70b-instruct", "meta"),
    ("openrouter/meta-llama/llama-3-70b-instruct", "meta"),
    ("groq/llama3-8b-8192", "meta"),
    ("bedrock/meta.llama3-70b-instruct-v1:0", "meta"),
    ("ollama/codellama", "meta"),
    ("meta-llama/Llama-3.3-70B-Instruct", "meta"),
    # others
    ("command-r-plus", "cohere"),
    ("cohere/command-a-03-2025", "cohere"),
    ("deepseek-chat", "deepseek"),
    ("deepseek/deepseek-reasoner", "deepseek"),
    ("qwen2.5-72b-instruct", "qwen"),
    ("openrouter/qwen/qwq-32b", "qwen"),
    ("xai/grok-2-latest", "xai"),
    ("grok-3-mini", "xai"),
    ("glm-4-plus", "zhipu"),
    ("ollama/phi3", "microsoft"),
    ("bedrock/amazon.nova-pro-v1:0", "amazon"),
    # guards and unknowns
    ("palmyra-x-004", "writer"),  # not google's palm
    ("writer/palmyra-x5", "writer"),
    ("writer/custom-alias", "writer"),  # vendor prefix decides when the name is unknown
    ("story-writer-7b", None),  # a vendor word inside a name is not a vendor prefix
    ("omni-foo", None),  # o + letters is not an o-series model
    ("omnibus-7b", None),
    ("palmtree-1", None),
    ("gptx", None),  # marker followed by a letter, not a digit
    ("my-finetune", None),
    ("ollama/my-local-model", None),
    ("", None),
    ("  GPT-4O  ", "openai"),  # case and whitespace
]


@pytest.mark.parametrize(("model", "family"), FAMILIES)
def test_model_family(model: str, family: str | None) -> None:
    assert model_family(model) == family


def test_table_is_large_enough() -> None:
    assert len(FAMILIES) >= 30
    assert sum(1 for model, _ in FAMILIES if "/" in model) >= 15  # prefixed ids well covered


def test_model_name_beats_routing_vendor() -> None:
    # an OpenAI-compatible gateway serving a Llama model: the bias follows the model, not the API
    assert model_family("openai/llama-3-8b") == "meta"
    assert model_family("openai/some-gateway-alias") == "openai"  # name unknown: vendor fallback


def test_same_family() -> None:
    jurors = ["gpt-4o-mini", "claude-3-5-haiku", "gemini-2.0-flash"]
    assert same_family(jurors, "openai/gpt-4.1") is True
    assert same_family(jurors, "bedrock/anthropic.claude-3-opus") is True
    assert same_family(jurors, "mistral-large-latest") is False
    assert same_family(jurors, None) is False  # tool tests have no generator
    assert same_family(jurors, "my-finetune") is False  # unknown never matches
    assert same_family(["my-finetune"], "other-finetune") is False  # unknown == unknown is no match
    assert same_family([], "gpt-4o") is False


def test_shared_family_jurors_names_the_offenders() -> None:
    jurors = ["openai/gpt-4o-mini", "claude-3-5-haiku", "o3-mini"]
    assert shared_family_jurors(jurors, "gpt-4.1") == ["openai/gpt-4o-mini", "o3-mini"]


def test_strict_panel_violations() -> None:
    jurors = ["gpt-4o-mini", "claude-3-5-haiku", "command-r"]
    problems = strict_panel_violations(jurors, "openai/gpt-4.1")
    assert len(problems) == 1
    assert "gpt-4o-mini" in problems[0] and "openai" in problems[0]
    assert strict_panel_violations(jurors, "mistral-large-latest") == []
    assert strict_panel_violations(jurors, None) == []
    assert len(strict_panel_violations(["gpt-4o", "o1"], "chatgpt-4o-latest")) == 2
