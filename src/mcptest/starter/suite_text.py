"""The starter suite's text: a `$schema` first line, the server, one test per tool, resource
and prompt. docs/init.md describes the choices."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from mcptest.lint.error_text import starter_check
from mcptest.starter.arguments import arguments_for
from mcptest.starter.client_block import starter_client
from mcptest.starter.resource_tests import prompt_test, resource_test
from mcptest.starter.yaml_out import depth, dump, fits
from mcptest.suite.schema import SUITE_SCHEMA_ID
from mcptest.suite.yaml_bounds import MAX_DEPTH

if TYPE_CHECKING:
    from mcptest.starter.discover import Catalog

TODO_TAG = "todo"
TEST_DEPTH = 3
"""Levels above a test's own values: the file's mapping, `tools:`, the test's mapping."""
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\u0085]+")


class StarterSuite(NamedTuple):
    """The suite file's text and what it holds, for `init`'s closing line."""

    text: str
    tests: int
    """Tests the suite runs (`held` not counted)."""
    todo: int
    """Of `tests`, those marked TODO (tagged `todo`)."""
    held: int
    """Destructive tools' tests, written as comments: never called."""


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
        notes.append("destructive (annotations.destructiveHint): check before running it")
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
    notes = review_notes(tool)
    if isinstance(output, dict) and output:
        if depth(output) <= MAX_DEPTH - TEST_DEPTH - 3:  # under expect[i].matcher.schema
            expect.append({"target": "result.structuredContent", "matcher": {"schema": output}})
        else:
            notes.append("outputSchema nests too deep to copy into a suite file (mcptest lint "
                         "checks it)")
    if depth(args.values) > MAX_DEPTH - TEST_DEPTH - 1:  # an example nested past the bound
        args = arguments_for({})
        notes.append("its example arguments nest too deep for a suite file: set args")
    todo = [f"set {', '.join(args.todo)}"] if args.todo else []
    todo += notes
    title = f"TODO {name}: {'; '.join(todo)}" if todo else f"{name} answers"
    test: dict[str, Any] = {"name": title, "server": server, "tool": name}
    if args.values:
        test["args"] = args.values
    if todo:
        test["tags"] = [TODO_TAG]
    test["expect"] = expect
    return escape(test), bool(todo)


def render_suite(
    server: str, spec: dict[str, Any], catalog: Catalog, source: str,
    selection: dict[str, Any] | None = None,
) -> StarterSuite:
    """The suite file's text and its counts of tests. `source` is how the server
    was given (`--command …`). Destructive tools come last: they may take the server down.
    `selection`: a draft corpus (`mcptest init --selection`), one TODO test more."""
    tools = [t for t in catalog.tools
             if isinstance(t, dict) and isinstance(t.get("name"), str) and t["name"]]
    tests, todo = [], 0
    for tool in (t for t in tools if not destructive(t)):
        test, has_todo = tool_test(server, tool)
        tests.append(test)
        todo += has_todo
    # never called by a generated suite: written as comments, for the user to enable
    held = [tool_test(server, t)[0] for t in tools if destructive(t)]
    resources = [r for r in (resource_test(server, x) for x in catalog.resources) if r]
    prompts = []
    for listed in catalog.prompts:
        prompt, has_todo = prompt_test(server, listed)
        if prompt is not None:
            prompts.append(prompt)
            todo += has_todo
    fits([*tests, *held], len(tools))  # before the whole file is written out: that is slow
    count = len(tests) + len(resources) + len(prompts)
    if selection is not None:
        count, todo = count + 1, todo + 1
    head = [
        f"# yaml-language-server: $schema={SUITE_SCHEMA_ID}",
        "#",
        f"# Starter suite for {comment_text(catalog.server_name or server)}, written by",
        f"#   mcptest init {comment_text(source, 200)}",
        f"# One test per tool, resource and prompt. The {todo} test(s) tagged `{TODO_TAG}` "
        "need you:",
        "# set their placeholder arguments (search for TODO), then drop the tag. Then add matchers",
        "# on what each should answer (docs/suites.md); these only check the shape. Meanwhile:",
        f"#   mcptest run THIS_FILE --skip-tag {TODO_TAG}",
        "# The server's `client:` block declares every capability a server may ask of its client",
        "# and answers with scripted TODOs (decline every form, a fixed sampling text, this",
        "# folder as the root): write the answers your users would give (docs/suites.md).",
    ]
    # every tool test: no error text under isError: false (docs/lint.md#error-text)
    checks = {"expect": [starter_check()], "kinds": ["tool"]}
    data: dict[str, Any] = {"servers": {server: {**escape(spec), "client": starter_client()}},
                            "defaults": checks, "tools": tests}
    if resources:
        data["resources"] = escape(resources)
    if prompts:
        data["prompts"] = escape(prompts)
    if selection is not None:
        data["selection"] = {server: selection}
    body = dump(data)
    if held:
        body += _commented(held)
    return StarterSuite("\n".join(head) + "\n\n" + body, count, todo, len(held))


def _commented(tests: list[dict[str, Any]]) -> str:
    """Tests of destructive tools as YAML comments: every line prefixed, so no server text can
    end the comment; uncommented, they go under `tools:`."""
    text = dump(tests)
    lines = ["", "# Tools that declare themselves destructive (annotations.destructiveHint) are",
             "# not called by this starter suite. Their tests, to move under `tools:` once you",
             "# know what calling them does:"]
    lines += ["#   " + line for line in text.splitlines()]
    return "\n".join(lines) + "\n"
