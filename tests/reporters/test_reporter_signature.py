"""Every format is one `Reporter`: `render(report, options=DEFAULTS) -> str`, dispatched by name
the same way by the CLI and the Action (issue 31)."""

from __future__ import annotations

import importlib
import inspect

import pytest
from sample import sample_report

from mcptest.reporters import DEFAULTS, REPORTERS, RenderOptions, get_reporter


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_each_format_has_the_one_signature(name: str) -> None:
    render = importlib.import_module(REPORTERS[name]).render
    params = list(inspect.signature(render).parameters.values())
    assert [(p.name, p.kind, p.annotation) for p in params] == [
        ("report", inspect.Parameter.POSITIONAL_OR_KEYWORD, "Report"),
        ("options", inspect.Parameter.POSITIONAL_OR_KEYWORD, "RenderOptions")]
    assert params[1].default is DEFAULTS
    assert inspect.signature(render).return_annotation == "str"
    assert get_reporter(name) is render


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_options_a_format_does_not_read_change_nothing(name: str) -> None:
    render = get_reporter(name)
    report = sample_report()
    plain = render(report)
    assert render(report, RenderOptions()) == plain
    used = {"pretty": "color", "md": "max_chars"}.get(name)
    if used != "color":
        assert render(report, RenderOptions(color=True)) == plain
    if used != "max_chars":
        assert render(report, RenderOptions(max_chars=100)) == plain
    else:
        assert len(render(report, RenderOptions(max_chars=3_000))) <= 3_000 < len(plain)
