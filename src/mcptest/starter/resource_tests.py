"""Starter tests for the resources and prompts a server lists (docs/init.md): each static
resource is read, each prompt is got with its required arguments (placeholders marked TODO)."""

from __future__ import annotations

from typing import Any

from mcptest.starter.arguments import PLACEHOLDER

TODO_TAG = "todo"
NON_EMPTY = {"type": "array", "minItems": 1}


def resource_test(server: str, resource: dict[str, Any]) -> dict[str, Any] | None:
    """Read the resource; its contents must not be empty. None for an entry without a URI."""
    uri = resource.get("uri")
    if not isinstance(uri, str) or not uri:
        return None
    return {"name": f"{uri} reads", "server": server, "uri": uri,
            "expect": [{"target": "result.contents", "matcher": {"schema": NON_EMPTY}}]}


def prompt_test(server: str, prompt: dict[str, Any]) -> tuple[dict[str, Any] | None, bool]:
    """Get the prompt; it must give messages. True when an argument is a placeholder."""
    name = prompt.get("name")
    if not isinstance(name, str) or not name:
        return None, False
    declared = prompt.get("arguments")
    required = [a["name"] for a in declared if isinstance(a, dict) and a.get("required")
                and isinstance(a.get("name"), str)] if isinstance(declared, list) else []
    test: dict[str, Any] = {
        "name": f"TODO {name}: set {', '.join(required)}" if required else f"{name} answers",
        "server": server, "prompt": name}
    if required:
        test["args"] = {arg: f"{PLACEHOLDER}: {arg}" for arg in required}
        test["tags"] = [TODO_TAG]
    test["expect"] = [{"target": "result.messages", "matcher": {"schema": NON_EMPTY}}]
    return test, bool(required)
