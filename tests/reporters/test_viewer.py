"""`mcptest view` in headless Chromium (docs/view.md): real runs against the example server and
the loopback judge give a failing agent test, a failing jury test and a replay that diverged;
the page draws each test's JSON-RPC timeline in order, every juror's ballot and the replay's
diff, asks the network for nothing, and hostile server and model text stays text."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from support.chromium import screenshot
from support.cli_inproc import Ran, cli
from support.cli_run import KEYLESS, SERVER
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.reporters.viewer import embedded_json

pytestmark = pytest.mark.slow  # the CLI, the example server and Chromium

HOSTILE = '</script><script>window.pwned=1</script><img src="http://canary.invalid/x.png">'
SUITE = """
servers:
  ex:
    command: [{python}, example_server.py]
tools:
  - name: greets the hostile
    server: ex
    tool: greet
    args: {{name: {hostile}}}
    tags: [smoke]
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Hello, Ada!"}}}}
  - name: jury finds it rude
    server: ex
    tool: greet
    args: {{name: Ada}}
    tags: [judged]
    expect:
      - target: "result.content[0].text"
        matcher:
          llm-jury:
            rubric: "A polite greeting."
            threshold: 0.7
            quorum: 0.67
            jurors: [{{model: juror-a}}, {{model: juror-b}}, {{model: juror-c}}]
agents:
  - name: greets and adds
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada, then add 2 and 3."
    expect:
      - {{target: final, matcher: {{contains: "= 5"}}}}
"""


class Dom(HTMLParser):
    """Every element with its attributes and text, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": list(self._open)}
        self.elements.append(node)
        if tag not in ("meta", "input", "br", "link", "img", "source"):
            self._open.append(node)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for node in self._open:
            node["text"] += data

    def find(self, cls: str, inside: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return [e for e in self.elements
                if cls in (e["attrs"].get("class") or "").split()
                and (inside is None or any(p is inside for p in e["parents"]))]

    def by_id(self, ident: str) -> dict[str, Any]:
        [node] = [e for e in self.elements if e["attrs"].get("id") == ident]
        return node


def _cli(cwd: Path, env: dict[str, str], *args: str) -> Ran:
    """`mcptest ARGS` in this process with exactly `env`, as a subprocess given it."""
    return cli(*args, cwd=cwd, env=env, inherit=False)


def _dom(chromium: str, page: Path, tmp: Path, fragment: str = "") -> Dom:
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={tmp / 'profile'}",
         "--dump-dom", page.as_uri() + fragment],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "<html" in done.stdout, done.stderr[-2000:]
    dom = Dom()
    dom.feed(done.stdout)
    return dom


def _inert(dom: Dom) -> None:
    """Nothing from the server became an element: our two scripts, no image, no handler."""
    scripts = [e for e in dom.elements if e["tag"] == "script"]
    assert [s["attrs"].get("type") for s in scripts] == ["application/json", None]
    assert not [e for e in dom.elements if e["tag"] in ("img", "iframe", "object", "embed")]
    assert not [e for e in dom.elements if any(k.startswith("on") for k in e["attrs"])]


def _view(root: Path, chromium: str, report: str, tmp: Path) -> tuple[Path, list[str]]:
    done = _cli(root, dict(KEYLESS), "view", report, "--output", report.replace(".json", ".html"))
    assert done.returncode == 0, done.stdout + done.stderr
    page = root / report.replace(".json", ".html")
    _, urls = screenshot(chromium, page, tmp)
    return page, urls


def test_a_failing_agent_a_failing_jury_and_a_diverged_replay(chromium: str, tmp_path: Path
                                                              ) -> None:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(SERVER, root / "example_server.py")
    (root / "suite.yml").write_text(SUITE.format(python=json.dumps(sys.executable),
                                                 hostile=json.dumps(HOSTILE)), encoding="utf-8")
    with JudgeServer() as js:
        js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})),
                             ToolCalls(("add", {"a": 2, "b": 3})),
                             Fault.text(f"Hello Ada! 2 + 3 is five. {HOSTILE}")])
        for juror, score in (("juror-a", 0.2), ("juror-b", 0.3), ("juror-c", 0.9)):
            js.script(juror, [Verdict(score=score, reason=f"{juror} says {HOSTILE}")])
        env = {**js.gateway_env(), "PATH": "/usr/bin:/bin"}
        done = _cli(root, env, "run", "suite.yml", "--models", "record", "--reporter", "json",
                    "--output", "live.json")
    assert done.returncode == 1, done.stdout + done.stderr
    # the pull request changes what `add` answers: the replay meets a turn it never recorded
    server = root / "example_server.py"
    server.write_text(server.read_text().replace("return a + b\n", "return a + b + 1\n"))
    done = _cli(root, dict(KEYLESS), "run", "suite.yml", "--models", "replay", "--filter",
                "greets and adds", "--reporter", "json", "--output", "replay.json")
    assert done.returncode == 1, done.stdout + done.stderr

    live, urls = _view(root, chromium, "live.json", tmp_path)
    assert urls == []
    dom = _dom(chromium, live, tmp_path)
    _inert(dom)
    rows = json.loads((root / "live.json").read_text())["tests"]
    by_name = {r["name"]: r for r in rows}

    # the tool test's timeline: the request, then its answer, as the wire carried them
    greet = dom.by_id(by_name["greets the hostile"]["id"])
    steps = [(s["attrs"]["data-direction"], s["attrs"]["data-kind"], s["text"])
             for s in dom.find("step", greet)]
    assert [(d, k) for d, k, _ in steps] == [("sent", "request"), ("received", "result")]
    assert "tools/call" in steps[0][2] and "tools/call" in steps[1][2]
    assert HOSTILE in greet["text"]  # shown, as text

    # every juror's ballot, with its reason
    jury = dom.by_id(by_name["jury finds it rude"]["id"])
    ballots = dom.find("ballot", jury)
    assert [b["text"].split(" ")[0][:7] for b in ballots] == ["juror-a", "juror-b", "juror-c"]
    assert [("ballot-fail" in b["attrs"]["class"]) for b in ballots] == [True, True, False]
    assert all(f"says {HOSTILE}" in b["text"] for b in ballots)

    # the agent's turns: two tool calls and the final answer
    agent = dom.by_id(by_name["greets and adds [model=gpt-4o]"]["id"]
                      if "greets and adds [model=gpt-4o]" in by_name else
                      next(r["id"] for r in rows if r["kind"] == "agent"))
    turns = dom.find("turn", agent)
    assert [t["text"].split(" ")[0] for t in turns] == ["greet", "add", "final"]
    assert HOSTILE in turns[-1]["text"]

    # the replay: the first differing turn as a diff
    replay, urls = _view(root, chromium, "replay.json", tmp_path)
    assert urls == []
    [row] = json.loads((root / "replay.json").read_text())["tests"]
    fragment = "#" + urllib.parse.quote(row["id"], safe="")
    dom = _dom(chromium, replay, tmp_path, fragment)
    _inert(dom)
    diverged = dom.by_id(row["id"])
    assert "linked" in diverged["attrs"]["class"]  # the deep link opened it
    removed = [d["text"] for d in dom.find("diff-del", diverged)]
    added = [d["text"] for d in dom.find("diff-add", diverged)]
    assert any('"result": 5' in t for t in removed), removed
    assert any('"result": 6' in t for t in added), added


def test_filters_by_status_and_tag_in_the_page(chromium: str, tmp_path: Path) -> None:
    """The status buttons and the tag list come from the report's rows."""
    from reporters.sample import sample_report
    from support.cli_inproc import cli

    (tmp_path / "r.json").write_text(sample_report().model_dump_json(), encoding="utf-8")
    done = cli("view", "r.json", "--output", "v.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    dom = _dom(chromium, tmp_path / "v.html", tmp_path)
    statuses = {b["attrs"]["data-status"] for b in dom.find("filter")}
    assert {"", "!passed", "passed", "failed"} <= statuses
    tags = {e["text"] for e in dom.elements if e["tag"] == "option"} - {"any"}
    assert tags == {t for r in sample_report().tests for t in r.tags}


def test_embedded_json_cannot_close_its_element() -> None:
    text = embedded_json({"a": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028"}


def test_cascade_tiers_and_a_baseline_comparison_are_drawn(chromium: str, tmp_path: Path
                                                          ) -> None:
    """A compared report (test_baseline_formats' sample) with the cascade sample's tiers: each
    tier is a row (the deciding one marked), each compared row says how it moved."""
    from test_baseline_formats import compared
    from test_cascade_display import _with_cascades

    from mcptest.reporters.viewer import render

    with_tiers = {t.id: t.assertions for t in _with_cascades().tests}
    report = compared()
    report = report.model_copy(update={"tests": [
        t.model_copy(update={"assertions": with_tiers[t.id]}) for t in report.tests]})
    [cascaded] = [t.id for t in report.tests
                  if any(a.judge and a.judge.escalation for a in t.assertions)]
    page = tmp_path / "v.html"
    page.write_text(render(report), encoding="utf-8")
    dom = _dom(chromium, page, tmp_path, "#" + urllib.parse.quote(cascaded, safe=""))
    _inert(dom)
    tiers = dom.find("tier", dom.by_id(cascaded))
    assert len(tiers) == 4  # two cascades of two tiers
    assert [("decided" in t["attrs"]["class"].split()) for t in tiers] == [True, False,
                                                                           False, True]
    assert "cheap <i>" in tiers[0]["text"]  # a model name with markup stays text
    notes = dom.find("comparison")
    assert notes and "against base.json" in notes[0]["text"]
    assert dom.find("baseline-row")  # the rows that moved say how
