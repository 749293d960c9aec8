"""What a connection declares and answers, worked out from the suite (run/client_config.py):
explicit capabilities win (the server's, then the suite's), else the answers and tests ask for
them; answers are the test's, then the server's, then the suite's."""

from __future__ import annotations

from pathlib import Path

import yaml

from mcptest.run.client_config import capabilities_for, client_config, merged, roots_of
from mcptest.suite.models import Suite


def suite(text: str) -> Suite:
    return Suite.model_validate(yaml.safe_load(text))


BASE = """
servers:
  a: {command: [srv]}
  b: {command: [srv], client: {capabilities: [roots]}}
  c: {command: [srv], client: {sampling: [{text: hi}]}}
"""


def test_nothing_asked_declares_nothing() -> None:
    assert client_config(suite(BASE), "a", Path()).capabilities == frozenset()


def test_explicit_capabilities_win_over_what_answers_need() -> None:
    s = suite(BASE + """
client: {elicitation: [{action: decline}], capabilities: [sampling, tasks]}
""")
    assert client_config(s, "b", Path()).capabilities == {"roots"}
    assert client_config(s, "a", Path()).capabilities == {"sampling", "tasks"}


def test_answers_and_tests_of_the_server_ask_for_capabilities() -> None:
    s = suite(BASE + """
client: {roots: []}
tools:
  - {name: t1, server: a, tool: x, client: {elicitation: [{action: cancel}]}}
  - {name: t2, server: a, tool: x, task: {cancel: true}}
  - {name: t3, server: a, tool: x, client: {capabilities: [sampling]}}
prompts:
  - {name: p1, server: c, prompt: p, client: {roots: [{path: data}]}}
""")
    # t3 declares its own set: it gets its own connection and adds nothing to the server's
    assert client_config(s, "a", Path()).capabilities == {"elicitation", "roots", "tasks"}
    assert client_config(s, "c", Path()).capabilities == {"sampling", "roots"}
    conn = client_config(s, "a", Path())
    assert capabilities_for(conn, s.tools[2].client) == {"sampling"}
    assert capabilities_for(conn, s.tools[0].client) == conn.capabilities


def test_answers_are_the_servers_then_the_suites_and_roots_resolve_next_to_the_suite(
        tmp_path: Path) -> None:
    s = suite(BASE + """
client:
  sampling: [{text: suite}]
  roots: ["file:///elsewhere"]
  log_level: info
""")
    answers = client_config(s, "c", tmp_path).answers
    assert [a.text for a in answers.sampling] == ["hi", "suite"]
    assert answers.log_level == "info"
    own = merged(s.servers["a"].client, s.client)  # a server without a block: the suite's
    assert [str(r.uri) for r in roots_of(own, tmp_path)] == ["file:///elsewhere"]
    rooted = suite("client: {roots: [{path: data, name: d}]}")
    (root,) = roots_of(merged(rooted.client), tmp_path)
    assert str(root.uri) == (tmp_path / "data").resolve().as_uri()
    assert root.name == "d"


def test_the_capability_ad_is_what_the_sdk_builds_from_callbacks() -> None:
    s = suite(BASE + "client: {capabilities: [sampling, elicitation, roots, tasks]}")
    ad = client_config(s, "a", Path()).client_capabilities().model_dump(
        by_alias=True, mode="json", exclude_none=True)
    assert ad == {"sampling": {}, "elicitation": {"form": {}, "url": {}},
                  "roots": {"listChanged": True},
                  "extensions": {"io.modelcontextprotocol/tasks": {}},
                  # the handshake alone adds protocol 2025-11-25's tasks (docs/suites.md)
                  "tasks": {"requests": {"sampling": {"createMessage": {}},
                                         "elicitation": {"create": {}}}}}
    only_roots = suite(BASE + "client: {capabilities: [roots, tasks]}")
    ad = client_config(only_roots, "a", Path()).client_capabilities().model_dump(
        by_alias=True, mode="json", exclude_none=True)
    assert ad["tasks"] == {"requests": {}}  # no request kinds without sampling or elicitation
