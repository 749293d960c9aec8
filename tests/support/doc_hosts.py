"""Where a YAML example of the docs is pasted to be validated (tests/docs/test_doc_examples.py):
a whole suite stays as written; a list of assertions, one assertion, one matcher or keys of a
tool test go into a test of a small host suite, under the key a reader would paste them under. The block's
own text is kept (not re-serialised), so a syntax mistake in it stays a syntax mistake."""

from __future__ import annotations

import textwrap
from typing import Any

import yaml

from mcptest.suite.models import MATCHER_KINDS, Suite, ToolTest
from support.doc_blocks import DocError

SERVER = "{command: [python, examples/server/example_server.py]}"
AGENT_ROOTS = ("tool_calls", "final", "conversation", "transcript")
SUITE_KEYS = frozenset(f.alias or name for name, f in Suite.model_fields.items())
TEST_KEYS = frozenset(f.alias or name for name, f in ToolTest.model_fields.items())
ASSERTION_KEYS = frozenset({"target", "matcher", "message", "weight"})

TOOL_TEST = """servers:
  example: {server}
tools:
  - name: doc example
    server: example
    tool: forecast
    args: {{city: Oslo}}
    expect:
"""
AGENT_TEST = """servers:
  example: {server}
agents:
  - name: doc example
    models: [gpt-4o-mini]
    servers: [example]
    prompt: "Tell Ada the forecast for Oslo."
    expect:
"""


def _kind(data: Any) -> str:
    if isinstance(data, list) and data and all(isinstance(a, dict) and "target" in a
                                               for a in data):
        roots = {str(a["target"]).split(".")[0].split("[")[0] for a in data}
        return "agent" if roots & set(AGENT_ROOTS) else "tool"
    if isinstance(data, dict) and data:
        keys = set(map(str, data))
        if "jobs" in keys:
            raise DocError("a GitHub workflow: annotate it `<!-- doc-test: workflow -->`")
        if keys <= SUITE_KEYS:
            return "suite"
        if "matcher" in keys and keys <= ASSERTION_KEYS:
            return "assertion"
        if len(keys) == 1 and keys <= set(MATCHER_KINDS):
            return "matcher"
        if keys <= TEST_KEYS - {"name", "server", "tool"}:
            return "test"
    raise DocError("not a suite, a list of assertions, an assertion or a matcher: annotate "
                   "what it is (`file PATH`, `workflow`, `skip REASON`; tests/docs/"
                   "test_doc_examples.py)")


def _named_servers(suite: dict[str, Any]) -> list[str]:
    names: list[str] = []
    for section in ("tools", "resources", "prompts", "lists", "evals", "agents"):
        for test in suite.get(section) or []:
            if isinstance(test, dict):
                names += [test["server"]] if isinstance(test.get("server"), str) else []
                names += [s for s in test.get("servers") or [] if isinstance(s, str)]
    surface = suite.get("surface")
    if isinstance(surface, dict):
        names += [s for s in surface.get("servers") or [] if isinstance(s, str)]
    selection = suite.get("selection")  # keyed by server (docs/selection.md)
    if isinstance(selection, dict):
        names += [s for s in selection if isinstance(s, str)]
    return list(dict.fromkeys(names))


def hosted_suite(text: str) -> str | None:
    """The suite file to validate for a YAML block of the docs (None: comments only). It is
    written to the clone's `examples/`, so `expected/`, `cases/`, `judges/` and `server/` resolve
    as for the example suites; the host's server command is relative to the clone's root, where
    the commands run."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise DocError(f"not valid YAML: {' '.join(str(e).split())}") from None
    if data is None:  # comments only (a first line to copy): nothing to validate
        return None
    body = textwrap.dedent(text)
    kind = _kind(data)
    if kind == "suite":
        if "servers" in data:
            return text
        names = _named_servers(data)
        extra = "".join(f"\n  {name}: {SERVER}" for name in names)
        return f"{text.rstrip()}\nservers:{extra or ' {}'}\n"
    head = (AGENT_TEST if kind == "agent" else TOOL_TEST).format(server=SERVER)
    if kind == "test":  # keys of a tool test: in place of the host test's `args` and `expect`
        head = head[:head.index("    args:")]
        if "args" not in data:
            head += "    args: {city: Oslo}\n"
        return head + textwrap.indent(body, " " * 4)
    if kind in ("tool", "agent"):
        return head + textwrap.indent(body, " " * 6)
    if kind == "assertion" and "target" in data:
        return head + textwrap.indent("- " + body.rstrip().replace("\n", "\n  "), " " * 6) + "\n"
    if kind == "assertion":
        return head + "      - target: result.content[0].text\n" + textwrap.indent(body, " " * 8)
    return (head + "      - target: result.content[0].text\n        matcher:\n"
            + textwrap.indent(body, " " * 10))
