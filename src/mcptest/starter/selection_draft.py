"""`mcptest init --selection`: a draft selection corpus (docs/selection.md) from the tools'
descriptions, one prompt per tool, for a person to rewrite as a user would ask.

Nothing is called to write it: the corpus only asks models which tool they would pick, and a
selection test never calls the tool, so a destructive tool gets its prompt like any other (a
model should pick it only when asked). The block is named and tagged TODO, so `--skip-tag todo`
leaves it out until its prompts are real: a prompt made of the description itself measures
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.llm.routing import resolve_model
from mcptest.starter.suite_text import TODO_TAG, comment_text, destructive, escape

if TYPE_CHECKING:
    from collections.abc import Mapping

FALLBACK_MODEL = "gpt-4o-mini"
"""The draft's model when no provider key names one (`llm.routing.DEFAULT_MODELS`)."""


def draft_selection(tools: list[dict[str, Any]], env: Mapping[str, str]) -> dict[str, Any]:
    """The `selection:` entry of one server: one TODO prompt per named tool."""
    prompts = []
    for tool in tools:
        name = str(tool["name"])
        about = comment_text(tool.get("description") or "", 160)
        note = " (it is destructive: a model should pick it only when asked)" if destructive(
            tool) else ""
        prompts.append({"prompt": f"TODO: ask, as a user would, for what {name} does"
                        + (f": {about}" if about else "") + note, "tool": name})
    block: dict[str, Any] = escape({
        "name": "TODO tool selection: rewrite each prompt as a user would ask",
        "models": [resolve_model(None, None, env) or FALLBACK_MODEL],
        "k": 5, "min_accuracy": 1.0, "tags": [TODO_TAG], "prompts": prompts})
    return block
