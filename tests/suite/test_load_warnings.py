"""Load warnings (suite/advice.py): a threshold set twice, and a judge of the answer's family.
They tell a rubric's form and a matcher's kind by name, so they import no rubric or matcher
model a suite does not use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.suite.advice import load_warnings
from mcptest.suite.load import load_suite

if TYPE_CHECKING:
    from pathlib import Path

SUITE = """\
servers:
  ex: {command: [python, -c, pass]}
rubrics:
  polite: {threshold: 0.6, criteria: [{name: kind, description: Is it kind?}]}
evals:
  - {name: by-ref, prompt: p, response: r, rubric: {ref: polite}, threshold: 0.8}
  - {name: own-ref, prompt: p, response: r, rubric: {ref: polite, threshold: 0.7}, threshold: 0.8}
  - {name: preset, prompt: p, response: r, rubric: {preset: safety, threshold: 0.5}, threshold: 0.8}
  - {name: text, prompt: p, response: r, rubric: Is it kind, threshold: 0.8}
agents:
  - name: plans
    models: [gpt-4o]
    servers: [ex]
    prompt: Weather in Oslo
    expect:
      - target: final_text
        matcher: {llm-jury: {rubric: Is it right, jurors: [{model: gpt-4o-mini}, {model: claude-3-5-haiku}]}}
"""


def test_each_rubric_form_and_a_same_family_juror_warn_once(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(SUITE, encoding="utf-8")
    warnings = load_warnings(load_suite(path, env={}))
    joined = "\n".join(warnings)
    assert len(warnings) == 4, joined
    assert "evals[0].threshold: both the eval's `threshold` (0.8) and rubric `polite`'s (0.6) " \
           "are set; the eval's 0.8 wins" in joined
    assert "evals[1].threshold: both the eval's `threshold` (0.8) and the rubric reference's " \
           "(0.7) are set; the rubric reference's 0.7 wins" in joined
    assert "evals[2].threshold: both the eval's `threshold` (0.8) and its rubric's (0.5) are " \
           "set; its rubric's 0.5 wins" in joined
    assert "agents[0].expect[0].matcher.llm-jury.jurors[0].model: judge `gpt-4o-mini`" in joined
