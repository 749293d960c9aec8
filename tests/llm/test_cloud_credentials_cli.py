"""A cloud route with no credentials (a fork's pull request has none) defers its judges and
agents like a provider whose key is unset, naming what to set; nothing is sent and the run
passes, as a keyless run does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.route_suite import AGENTS, route_suite, rows, run_route

from mcptest.exit_codes import ExitCode
from mcptest.llm.cloud_credentials import missing_credentials

pytestmark = pytest.mark.slow  # the example server

NAMED = {"azure": "AZURE_API_KEY and AZURE_API_BASE", "openrouter": "no OPENROUTER_API_KEY",
         "bedrock": "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
         "vertex_ai": "GOOGLE_APPLICATION_CREDENTIALS"}
MODELS = {"azure": "azure/gpt-4o", "openrouter": "openrouter/openai/gpt-4o", "bedrock": "bedrock/amazon.nova-lite-v1:0",
          "vertex_ai": "vertex_ai/gemini-2.5-flash"}


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_no_cloud_credentials_defers_and_names_the_variables(provider: str,
                                                             tmp_path: Path) -> None:
    model = MODELS[provider]
    r, rep = run_route(tmp_path, route_suite(model, model, model),
                       {"MCPTEST_PYTHON": sys.executable, "HOME": str(tmp_path)})
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    by = rows(rep)
    for name in AGENTS:
        assert by[name]["status"] == "deferred", by[name]
        assert NAMED[provider] in by[name]["message"], by[name]["message"]
    judged = by["judged release note"]
    assert judged["status"] == "deferred"
    assert NAMED[provider] in judged["assertions"][0]["message"]
    if provider != "openrouter":  # a cloud route: no single key
        assert f"no {provider} credentials for judge {model!r}: set " in \
            judged["assertions"][0]["message"]
    assert rep["summary"]["cost_usd"] == 0.0


def test_what_counts_as_credentials(tmp_path: Path) -> None:
    home = {"HOME": str(tmp_path)}
    assert missing_credentials("azure", {**home, "AZURE_API_KEY": "k"}) == \
        "AZURE_API_BASE (and AZURE_API_VERSION)"
    assert missing_credentials("azure", {**home, "AZURE_API_KEY": "k",
                                         "AZURE_API_BASE": "https://x"}) is None
    assert missing_credentials("bedrock", {**home, "AWS_PROFILE": "ci"}) is None
    assert missing_credentials("bedrock", {**home, "AWS_ACCESS_KEY_ID": "a"}) is not None
    (tmp_path / ".aws").mkdir()
    (tmp_path / ".aws" / "credentials").write_text("[default]\n", encoding="utf-8")
    assert missing_credentials("bedrock", home) is None  # the shared credentials file
    key = tmp_path / "sa.json"
    assert missing_credentials("vertex_ai", {**home, "GOOGLE_APPLICATION_CREDENTIALS":
                                             str(key)}) is not None  # no such file yet
    key.write_text("{}", encoding="utf-8")
    assert missing_credentials("vertex_ai", {**home, "GOOGLE_APPLICATION_CREDENTIALS":
                                             str(key)}) is None
    assert missing_credentials("anthropic", {}) is None  # not a cloud route
