"""Vendor families of model ids, so a jury can tell when a juror grades its own family's output.

A juror from the generator's family may prefer that family's style (self-preference bias), so
the jury reports `same_family` and `strict_panel` refuses such a panel (docs/§5.3). The family
is read from the model id: routing prefixes (`openrouter/`, `bedrock/`, `vertex_ai/` …) are
looked through, the model name decides, and a single-vendor prefix (`openai/`, `anthropic/`,
`azure/` …) is the fallback when the name is not recognised. Fine-tunes keep their base family
(`nous-hermes-2-mixtral` is mistral), because the bias follows the base model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

_SPLIT = re.compile(r"[-_.:@ ]+")
_O_SERIES = re.compile(r"o\d+")
_LETTERS_THEN_DIGIT = re.compile(r"([a-z]+)\d")

# Token markers: a token matches when it equals the marker or is the marker followed by a digit
# (`claude3`, `llama3`, `qwen2`). The digit guard keeps `palmyra` from reading as `palm`.
_MARKERS: dict[str, str] = {
    # anthropic
    "claude": "anthropic", "anthropic": "anthropic",
    # openai
    "gpt": "openai", "chatgpt": "openai", "openai": "openai", "davinci": "openai",
    "babbage": "openai", "curie": "openai", "whisper": "openai", "dall": "openai",
    "codex": "openai",
    # google
    "gemini": "google", "gemma": "google", "palm": "google", "bison": "google",
    "gecko": "google", "codegemma": "google", "paligemma": "google",
    "recurrentgemma": "google", "shieldgemma": "google", "medgemma": "google",
    "learnlm": "google", "google": "google",
    # mistral
    "mistral": "mistral", "mixtral": "mistral", "codestral": "mistral", "magistral": "mistral",
    "ministral": "mistral", "devstral": "mistral", "pixtral": "mistral", "mathstral": "mistral",
    "voxtral": "mistral", "mistralai": "mistral",
    # meta
    "llama": "meta", "codellama": "meta", "meta": "meta", "facebook": "meta",
    # cohere
    "command": "cohere", "aya": "cohere", "cohere": "cohere", "c4ai": "cohere",
    # others
    "deepseek": "deepseek", "qwen": "qwen", "qwq": "qwen", "qvq": "qwen", "alibaba": "qwen",
    "dashscope": "qwen", "grok": "xai", "xai": "xai", "glm": "zhipu", "chatglm": "zhipu",
    "zhipuai": "zhipu", "minimax": "minimax", "abab": "minimax", "kimi": "moonshot",
    "moonshot": "moonshot", "moonshotai": "moonshot", "phi": "microsoft",
    "microsoft": "microsoft", "nova": "amazon", "titan": "amazon", "amazon": "amazon",
    "jamba": "ai21", "ai21": "ai21", "granite": "ibm", "ibm": "ibm", "palmyra": "writer",
    "nemotron": "nvidia",
}

# Whole path segments that name a single vendor, used only when the model name says nothing
# (`azure/my-deployment` is an Azure OpenAI deployment).
_VENDOR_SEGMENTS: dict[str, str] = {
    "azure": "openai", "x-ai": "xai", "deepseek-ai": "deepseek", "meta-llama": "meta",
    "cohere_chat": "cohere", "text-completion-openai": "openai", "openai": "openai",
    "anthropic": "anthropic", "gemini": "google", "mistral": "mistral", "codestral": "mistral",
    "cohere": "cohere", "deepseek": "deepseek", "xai": "xai", "dashscope": "qwen",
    "moonshot": "moonshot", "ai21": "ai21", "palm": "google", "writer": "writer",
}


def _token_family(token: str) -> str | None:
    if _O_SERIES.fullmatch(token):
        return "openai"
    family = _MARKERS.get(token)
    if family is not None:
        return family
    match = _LETTERS_THEN_DIGIT.match(token)  # `llama3`, `gpt4o`, `claude3`, not `palmyra`
    if match:
        return _MARKERS.get(match.group(1))
    return None


def _segment_family(segment: str) -> str | None:
    """Family named by one path segment (`us.anthropic.claude-3-5-sonnet-v2:0`, `gpt-4o`)."""
    for token in _SPLIT.split(segment):
        if token:
            family = _token_family(token)
            if family is not None:
                return family
    if segment.startswith("text-"):  # text-davinci-003, text-embedding-3-small
        return "openai"
    return None


def model_family(model: str) -> str | None:
    """Vendor family of a model id (`anthropic`, `openai`, `google`, `mistral`, `meta` …).

    None when the id names no known family (`omni-foo`, `my-finetune`).
    """
    segments = [seg for seg in model.strip().lower().split("/") if seg]
    for segment in reversed(segments):  # the model name first, then org and routing segments
        family = _segment_family(segment)
        if family is not None:
            return family
    for segment in segments:
        family = _VENDOR_SEGMENTS.get(segment)
        if family is not None:
            return family
    return None


def same_family(juror_models: Sequence[str], generator_model: str | None) -> bool:
    """True when some juror's known family equals the generator's known family."""
    return bool(shared_family_jurors(juror_models, generator_model))


def shared_family_jurors(juror_models: Sequence[str], generator_model: str | None) -> list[str]:
    """The juror models whose family is the generator's (empty without a known generator)."""
    if generator_model is None:
        return []
    target = model_family(generator_model)
    if target is None:
        return []
    return [m for m in juror_models if model_family(m) == target]


def strict_panel_violations(juror_models: Sequence[str], generator_model: str | None) -> list[str]:
    """One message per juror that shares the generator's family; the loader raises on any."""
    if generator_model is None:
        return []
    family = model_family(generator_model)
    return [
        f"juror {juror!r} is from the {family} family, like the generator model "
        f"{generator_model!r}; strict_panel forbids a juror grading its own family"
        for juror in shared_family_jurors(juror_models, generator_model)
    ]
