"""The starter suite's text: a `$schema` first line, the server, one test per tool, and the
resources and prompts as comments (suites test tools). docs/init.md describes the choices."""

from __future__ import annotations

import re
from typing import Any

import yaml

from mcptest.starter.arguments import arguments_for
from mcptest.starter.discover import Catalog
from mcptest.suite.schema import SUITE_SCHEMA_ID

TODO_TAG = "todo"
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\u0085]+")


def comment_text(text: Any, limit: int = 100) -> str:
    """Server text fit for one YAML comment line: no line breaks, no control characters."""
    flat = " ".join(_UNPRINTABLE.sub(" ", str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def escape(value: Any) -> Any:
    """`${` → `$${` in every string, so server text is never interpolated by our loader."""
    if isinstance(value, str):
        return value.replace("${", "$${")
    if isinstance(value, list):
        return [escape(v) for v in value]
    if isinstance(value, dict):
        return {k: escape(v) for k, v in value.items()}
    return value


def server_key(name: str | None) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", (name or "").lower()).strip("-")[:40]
    return slug or "server"


def _hint(tool: dict[str, Any], name: str) -> bool:
    """Only an explicit `true` counts: the spec's defaults would flag every plain tool."""
    hints = tool.get("annotations")
    return isinstance(hints, dict) and hints.get(name) is True


def destructive(tool: dict[str, Any]) -> bool:
    return _hint(tool, "destructiveHint")


def review_notes(tool: dict[str, Any]) -> list[str]:
    """Why a tool's test cannot be trusted to pass as written, from what the tool declares."""
    notes = []
    if destructive(tool):
        notes.append("destructive (annotations.destructiveHint): check before running")
    if _hint(tool, "openWorldHint"):
        notes.append("reaches outside (annotations.openWorldHint): check CI can reach it")
    execution = tool.get("execution")
    if isinstance(execution, dict) and execution.get("taskSupport") == "required":
        notes.append("runs only as a task (execution.taskSupport), which tool tests do not request")
    return notes


def tool_test(server: str, tool: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """One test for one tool; True when it is marked TODO (placeholder arguments, or what the
    tool declares, see `review_notes`): named `TODO …` and tagged `todo`."""
    name = str(tool.get("name", ""))
    args = arguments_for(tool.get("inputSchema"))
    # `isError` may be absent (it then means false): the schema accepts both
    expect: list[dict[str, Any]] = [{"target": "result", "matcher": {
        "schema": {"type": "object", "properties": {"isError": {"const": False}}}}}]
    output = tool.get("outputSchema")
    if isinstance(output, dict) and output:
        expect.append({"target": "result.structuredContent", "matcher": {"schema": output}})
    todo = [f"set {', '.join(args.todo)}"] if args.todo else []
    todo += review_notes(tool)
    title = f"TODO {name}: {'; '.join(todo)}" if todo else f"{name} answers"
    test: dict[str, Any] = {"name": title, "server": server, "tool": name}
    if args.values:
        test["args"] = args.values
    if todo:
        test["tags"] = [TODO_TAG]
    test["expect"] = expect
    return escape(test), bool(todo)


class _Dumper(yaml.SafeDumper):
    """Block style with list items indented under their key, as people write YAML."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def render_suite(
    server: str, spec: dict[str, Any], catalog: Catalog, source: str,
) -> tuple[str, int, int]:
    """The suite file's text, its number of tests and of TODO tests. `source` is how the server
    was given (`--command …`). Destructive tools come last: they may take the server down."""
    tools = [t for t in catalog.tools
             if isinstance(t, dict) and isinstance(t.get("name"), str) and t["name"]]
    tools.sort(key=destructive)
    tests, todo = [], 0
    for tool in tools:
        test, has_todo = tool_test(server, tool)
        tests.append(test)
        todo += has_todo
    head = [
        f"# yaml-language-server: $schema={SUITE_SCHEMA_ID}",
        "#",
        f"# Starter suite for {comment_text(catalog.server_name or server)}, written by",
        f"#   mcptest init {comment_text(source, 200)}",
        f"# One test per tool. The {todo} test(s) tagged `{TODO_TAG}` need you: set their "
        "placeholder",
        "# arguments (search for TODO), then drop the tag. Then add matchers on what each tool",
        "# should answer (docs/suites.md); these only check the shape. Run the rest meanwhile:",
        f"#   mcptest run THIS_FILE --skip-tag {TODO_TAG}",
    ]
    for label, items, key in (("Resources", catalog.resources, "uri"),
                              ("Prompts", catalog.prompts, "name")):
        if items:
            head += ["#", f"# {label} the server lists (not tested: suites call tools):"]
            head += [f"#   - {comment_text(i.get(key))}"
                     + (f": {comment_text(i.get('description'), 70)}"
                        if i.get("description") else "")
                     for i in items[:50]]
            if len(items) > 50:
                head.append(f"#   … and {len(items) - 50} more")
    body = yaml.dump({"servers": {server: escape(spec)}, "tools": tests}, Dumper=_Dumper,
                     sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(head) + "\n\n" + body, len(tests), todo
