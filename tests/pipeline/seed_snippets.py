"""The index of the source documents' YAML snippets kept in tests/data/seed_snippets/, and the
helpers that read and run them (issue 11: every snippet, pasted into a suite, behaves as its
document says). The tests are in test_seed_snippets.py and test_seed_snippets_evals.py.

A snippet file holds the document's text between `# >>> seed <doc> lines A-B` and `# <<< seed`,
byte for byte, except for two marked changes: `, indented N` shifts a fragment (an `expect:`
entry) right so it nests in the wrapper, and a `# >>> adapted` … `# <<< adapted` block replaces
the document's lines (kept there as `# ` comments) with ours, for a server we can start.
`pasted` undoes both, so a test can check the text against the document's hash.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.cli_inproc import cli
from support.cli_run import REPO, shared_server_text
from support.judge_server import JudgeServer

DATA = REPO / "tests" / "data" / "seed_snippets"
DOCS = {
    "000": "jury consensus (mcptest docs, `llm-jury`)",
    "001": "LLM as a jury (a Python API: llm_jury(), EvaluatorConfig)",
    "002": "Scenario 7: llm-judge matcher preview (`tests/judge.yml`, --max-cost)",
    "003": "rubric scoring (`evals:`)",
    "004": "why a jury (a Java API: three tiers, Judge interface)",
}


@dataclass(frozen=True)
class Snippet:
    lines: str
    sha256: str  # first 16 hex digits of the document's text in that range
    claim: str


SNIPPETS: dict[str, Snippet] = {
    "000-01": Snippet("13-26", "5a46326116242a40", "three jurors, threshold 0.7, quorum 0.67: "
                      "[pass, pass, fail] is 2/3 = 0.67 and passes; [pass, fail, fail] fails"),
    "000-02": Snippet("75-90", "bfb89f841ec063cc", "jury.agreement/confidence/escalate gate the "
                      "test: a split jury fails it even when the quorum passed"),
    "000-03": Snippet("110-115", "7c28e2d53238cd4a", "a tool-result jury: same_family false, "
                      "bias_warning null; jury.* targets need exactly one jury in the test"),
    "002-01": Snippet("15-57", "fed941d4b6173d6c", "eval --max-cost 0.50: PASS with score and "
                      "cost, total under the cap; FAIL shows score < threshold and the reason; "
                      "the second assertion uses the default judge model"),
    "003-01": Snippet("17-22", "21b8f63f0c522125", "free-form rubric, threshold 0.7, live: the "
                      "agent run is graded; without a key the eval defers (passed with a note)"),
    "003-02": Snippet("28-39", "b7308be5b8f606b6", "weighted criteria: score is the "
                      "weight-normalized mean (weight defaults to 1), threshold 0.8"),
    "003-03": Snippet("45-57", "6dbe49c8913ac74f", "decision tree: yes is a score >= 0.5, a leaf "
                      "ends the walk, the report shows the path"),
    "003-04": Snippet("63-84", "b6466aa40dc145d6", "rubric ref, threshold overridden inline to "
                      "0.9; an unknown ref is a load-time error"),
    "003-05": Snippet("92-105", "9cf47640ed9200c6", "required must hold, guard must not, "
                      "whatever the average"),
    "003-06": Snippet("111-124", "56dcd7a5ec0eb098", "anchors rendered as Response: \"...\" -> "
                      "score X.XX under \"Calibration examples\""),
    "003-07": Snippet("132-143", "988f97fe7327db46", "require_evidence: a cited span is shown; a "
                      "criterion without a real span scores 0 and gates the eval"),
    "003-08": Snippet("151-162", "5d15547da03f5a78", "when: contains holds so the criterion is "
                      "graded; its own threshold 0.9 gates it"),
    "003-09": Snippet("174-188", "e0014c4fcd63dcc9", "aggregation min: the worst criterion sets "
                      "the score; likert 1-5 shown as e.g. 4.0/5"),
    "003-10": Snippet("196-206", "65ea87750fc3fb5e", "jury size 3, consensus 0.66: two of three "
                      "pass; score is the mean; the header projects 3 judge calls"),
    "003-11": Snippet("212-221", "05d2b2401b734e60", "panel, majority, tie_break fail: an even "
                      "split fails; the reported score is the panel mean"),
    "003-12": Snippet("229-239", "aba0042041612303", "preset groundedness with threshold 0.8 and "
                      "an appended criterion"),
    "003-13": Snippet("260-266", "3b8a705c8f96b713", "a fixed response graded at threshold 0.6; "
                      "eval exits 0 when every eval passes and 1 when one scores below"),
    "003-14": Snippet("272-282", "ea77e629ffd90dc1", "live criteria graded on the agent run "
                      "(tool calls and reply); with no key the eval defers"),
    "003-15": Snippet("288-298", "41746fb17f7d6941", "matrix: 2 models x 2 prompts, one row per "
                      "cell named by its coordinates"),
}

_SEED = re.compile(r"^\s*# >>> seed (\d{3}) lines (\d+)-(\d+)(?:, indented (\d+))?$")


def path_of(sid: str) -> Path:
    return DATA / f"{sid}.yml"


def pasted(path: Path) -> tuple[str, str, str]:
    """(document, line range, the document's text) recovered from a snippet file."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if _SEED.match(line.rstrip("\n")))
    m = _SEED.match(lines[start].rstrip("\n"))
    assert m is not None
    doc, first, last, indent = m.group(1), m.group(2), m.group(3), int(m.group(4) or 0)
    out: list[str] = []
    adapted = False
    for line in lines[start + 1:]:
        if line.strip() == "# <<< seed":
            break
        if line.startswith("# >>> adapted"):
            adapted = True
        elif line.startswith("# <<< adapted"):
            adapted = False
        elif adapted:
            if line.startswith("# "):
                out.append(line[2:])
        else:
            assert not line.strip() or line.startswith(" " * indent), line
            out.append(line[indent:] if line.strip() else line)
    else:
        raise AssertionError(f"{path}: no `# <<< seed` line")
    return doc, f"{first}-{last}", "".join(out)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def env_for(js: JudgeServer | None, **extra: str) -> dict[str, str]:
    """The example server's interpreter, the loopback judge (none: keyless) and `extra`."""
    return {**(js.gateway_env() if js else {}), "MCPTEST_PYTHON": sys.executable,
            "MCPTEST_JUDGE_MODEL": "judge-m", **extra}


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    report: dict[str, Any]

    def row(self, name: str | None = None) -> dict[str, Any]:
        rows = [t for t in self.report["tests"] if name is None or t["name"] == name]
        assert len(rows) == 1, [t["name"] for t in self.report["tests"]]
        return rows[0]


def on_shared_server(path: Path, tmp_path: Path) -> Path:
    """A copy of the snippet file in `tmp_path/snippets` whose example server is the test
    process's shared one (`support.cli_run.shared_server_text`, on as many lines): what the
    snippet makes of the server's answers is the point, not a server process per run."""
    text = shared_server_text(path.read_text(encoding="utf-8"), path)
    copy = tmp_path / "snippets" / path.name
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(text, encoding="utf-8")
    return copy


def run(cmd: str, path: Path, tmp_path: Path, env: dict[str, str], *args: str) -> Run:
    """`mcptest CMD PATH ARGS` as a user runs it: pretty on stdout, the JSON report read back."""
    out = tmp_path / f"{path.stem}-{len(list(tmp_path.glob('*.json')))}.json"
    r = cli(cmd, on_shared_server(path, tmp_path), *args, "--no-cache", "--reporter", "pretty",
            "--reporter", "json", "--output", out, cwd=REPO, env=env)
    assert out.is_file(), r.stdout + r.stderr
    return Run(r.returncode, r.stdout, r.stderr, json.loads(out.read_text(encoding="utf-8")))
