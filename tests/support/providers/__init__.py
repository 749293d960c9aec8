"""Loopback stand-ins of four providers' own wire formats (docs/judges.md, "Providers")."""

from support.providers.anthropic import AnthropicStandIn
from support.providers.base import StandIn
from support.providers.gemini import GeminiStandIn
from support.providers.mistral import MistralStandIn
from support.providers.openai_chat import OpenAIStandIn

FAMILIES: dict[str, type[StandIn]] = {
    "anthropic": AnthropicStandIn, "openai": OpenAIStandIn, "gemini": GeminiStandIn,
    "mistral": MistralStandIn,
}

__all__ = ["FAMILIES", "AnthropicStandIn", "GeminiStandIn", "MistralStandIn", "OpenAIStandIn",
           "StandIn"]
