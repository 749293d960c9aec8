"""The side-by-side workloads, written once for each CLI (mcptest suites, promptfoo configs).

W0 one judged answer (cold start) · W1 200 judged answers, one call each · W2 100 answers × a
3-model jury (300 calls; promptfoo: three `llm-rubric` in an `assert-set` at threshold 0.5;
mcptest: an eval whose `judge:` is a 3-model majority panel) · W3 1,000 deterministic tool tests
on the example stdio server (promptfoo: its `mcp` provider calling the same tool).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "examples" / "server" / "example_server.py"
RUBRIC = "The answer is a deployment note that names the release."
JURY = ("judge-a", "judge-b", "judge-c")


@dataclass(frozen=True)
class Workload:
    name: str
    what: str
    answers: int
    jurors: int  # 0: deterministic tool tests
    calls: int


WORKLOADS = {
    "W0": Workload("W0", "1 judged answer (cold start)", 1, 1, 1),
    "W1": Workload("W1", "200 judged answers", 200, 1, 200),
    "W2": Workload("W2", "100 answers x 3-model jury", 100, 3, 300),
    "W3": Workload("W3", "1,000 deterministic tool tests", 1000, 0, 0),
}


def _answer(i: int) -> str:
    return f"Deployed billing-api v2.{i}.0 to production; roll back with `deploy rollback`."


def mcptest_suite(w: Workload, folder: Path, early_stop: bool = False) -> Path:
    """The mcptest suite of `w` (judge endpoint from MCPTEST_JUDGE_BASE_URL); `early_stop`:
    the panel asks its members in waves (docs/evals.md, "Early stop"), which promptfoo has no
    counterpart of, so it is its own row next to the full panel's."""
    if w.jurors == 0:
        doc: dict[str, object] = {
            "servers": {"example": {"command": [sys.executable, str(SERVER)]}},
            "tools": [{"name": f"add {i}", "server": "example", "tool": "add",
                       "args": {"a": i, "b": 1},
                       "expect": [{"target": "result.structuredContent.result",
                                   "matcher": {"exact": i + 1}}]}
                      for i in range(w.answers)]}
    else:
        judge: dict[str, object] = ({"model": JURY[0]} if w.jurors == 1 else
                                    {"panel": list(JURY[:w.jurors]), "aggregate": "majority"})
        if early_stop:
            judge["early_stop"] = True
        doc = {"evals": [{"name": f"answer {i}", "prompt": "What was deployed?",
                          "response": _answer(i), "rubric": RUBRIC, "threshold": 0.5,
                          "judge": judge} for i in range(w.answers)]}
    path = folder / f"mcptest-{w.name}{'-early' if early_stop else ''}.yml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def promptfoo_config(w: Workload, folder: Path, base_url: str) -> Path:
    """The promptfoo config of `w`, pointed at the same loopback judge."""
    def grader(model: str) -> dict[str, object]:
        return {"id": f"openai:chat:{model}", "config": {"apiBaseUrl": base_url,
                                                        "apiKey": "bench"}}

    if w.jurors == 0:
        cfg: dict[str, object] = {
            "description": w.name,
            "prompts": ['{"tool": "add", "args": {"a": {{a}}, "b": 1}}'],
            "providers": [{"id": "mcp", "config": {"enabled": True, "server": {
                "command": sys.executable, "args": [str(SERVER)], "name": "example"}}}],
            "tests": [{"vars": {"a": i}, "assert": [{"type": "contains", "value": str(i + 1)}]}
                      for i in range(w.answers)]}
    else:
        if w.jurors == 1:
            asserts: list[dict[str, object]] = [{"type": "llm-rubric", "value": RUBRIC}]
            default: dict[str, object] = {"options": {"provider": grader(JURY[0])}}
        else:
            asserts = [{"type": "assert-set", "threshold": 0.5, "assert": [
                {"type": "llm-rubric", "value": RUBRIC, "provider": grader(m)}
                for m in JURY[:w.jurors]]}]
            default = {}
        cfg = {"description": w.name, "prompts": ["{{answer}}"], "providers": ["echo"],
               "defaultTest": default,
               "tests": [{"vars": {"answer": _answer(i)}, "assert": asserts}
                         for i in range(w.answers)]}
    path = folder / f"promptfoo-{w.name}.json"
    path.write_text(json.dumps(cfg), encoding="utf-8")
    return path
