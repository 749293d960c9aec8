"""Resource, prompt and list tests' requests against server-everything (the npm reference
server: resources, templates and prompts), and what their targets resolve to; the suite side
(positioned errors) too."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.servers import process_env

from mcptest.errors import SuiteErrors
from mcptest.grade.deterministic import evaluate
from mcptest.grade.targets import Resolved, resolve
from mcptest.run.session import ServerConnection
from mcptest.run.surface_calls import produce, produced_of, resource_uri, subject
from mcptest.suite.load import load_suite
from mcptest.suite.models import (
    ContainsMatcher,
    ListTest,
    PromptTest,
    ResourceTest,
    SchemaMatcher,
    StdioServer,
)

pytestmark = pytest.mark.anyio


def value(produced: dict[str, object], path: str) -> object:
    found = resolve(produced, path)  # type: ignore[arg-type]
    assert isinstance(found, Resolved), found
    return found.value


async def test_resources_prompts_and_lists_on_server_everything(everything: StdioServer) -> None:
    async with ServerConnection.open("everything", everything, base_dir=Path.cwd(),
                                     env=process_env()) as conn:
        static = ResourceTest(name="doc", server="everything",
                              uri="demo://resource/static/document/architecture.md")
        produced = produced_of(static, await produce(conn, static))
        assert isinstance(value(produced, "result.contents[0].text"), str)
        assert value(produced, "result.contents[0].mimeType") == "text/markdown"
        assert value(produced, "blob_bytes") == [None]

        blob = ResourceTest(name="blob", server="everything",
                            template="demo://resource/dynamic/blob/{resourceId}",
                            args={"resourceId": "7"})
        assert resource_uri(blob) == "demo://resource/dynamic/blob/7"
        produced = produced_of(blob, await produce(conn, blob))
        size = value(produced, "blob_bytes[0]")
        assert isinstance(size, int) and size > 0
        assert evaluate(SchemaMatcher.model_validate({"schema": {"type": "integer",
                                                                 "minimum": 1}}),
                        size).passed

        prompt = PromptTest(name="p", server="everything", prompt="args-prompt",
                            args={"city": "Oslo"})
        produced = produced_of(prompt, await produce(conn, prompt))
        assert value(produced, "result.messages[0].role") == "user"
        text = value(produced, "result.messages[0].content.text")
        assert evaluate(ContainsMatcher.model_validate({"contains": "Oslo"}), text).passed

        listing = ListTest.model_validate({"name": "l", "server": "everything",
                                           "list": "prompts"})
        assert subject(listing) == "prompts/list"
        produced = produced_of(listing, await produce(conn, listing))
        names = [p["name"] for p in value(produced, "result.prompts")]  # type: ignore[attr-defined]
        assert "args-prompt" in names

        missing = PromptTest(name="m", server="everything", prompt="no-such-prompt")
        outcome = await produce(conn, missing)
        assert outcome.error is not None and "code" in outcome.error
        assert "error" in produced_of(missing, outcome)


def test_suite_keys_validate_with_positions(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(
        "servers:\n  s: {command: [x]}\n"
        "resources:\n"
        "  - {name: a, server: s, uri: 'file:///a', template: 'file:///{x}'}\n"
        "  - {name: b, server: nope, uri: 'file:///b'}\n"
        "prompts:\n  - {name: c, server: s}\n"
        "lists:\n  - {name: d, server: s, list: things}\n", encoding="utf-8")
    with pytest.raises(SuiteErrors) as info:
        load_suite(path, env={})
    lines = [str(e) for e in info.value.errors]
    assert any("s.yml:4:" in ln and "exactly one of `uri` and `template`" in ln for ln in lines)
    assert any("s.yml:5:" in ln and "unknown server `nope`" in ln for ln in lines)
    assert any("s.yml:7:" in ln and "prompt" in ln for ln in lines)
    assert any("s.yml:9:" in ln and "things" in ln for ln in lines), lines


async def test_resources_prompts_and_lists_on_the_example_server(
    example_stdio: StdioServer,
) -> None:
    async with ServerConnection.open("example", example_stdio, base_dir=Path.cwd(),
                                     env=process_env()) as conn:
        assert conn.protocol_version == "2026-07-28"
        whole = ResourceTest(name="all", server="example", uri="catalog://services")
        produced = produced_of(whole, await produce(conn, whole))
        assert value(produced, "result.contents[0].mimeType") == "application/json"
        assert '"svc-billing"' in str(value(produced, "result.contents[0].text"))

        one = ResourceTest(name="one", server="example",
                           template="catalog://services/{service_id}",
                           args={"service_id": "svc-auth"})
        produced = produced_of(one, await produce(conn, one))
        assert '"owner": "platform-team"' in str(value(produced, "result.contents[0].text"))

        prompt = PromptTest(name="p", server="example", prompt="incident_summary",
                            args={"service": "billing", "severity": "high"})
        produced = produced_of(prompt, await produce(conn, prompt))
        assert value(produced, "result.messages[0].role") == "user"
        assert "billing service (severity high)" in str(
            value(produced, "result.messages[0].content.text"))

        templates = ListTest.model_validate({"name": "t", "server": "example",
                                             "list": "templates"})
        produced = produced_of(templates, await produce(conn, templates))
        assert value(produced, "result.resourceTemplates[0].uriTemplate") == (
            "catalog://services/{service_id}")
