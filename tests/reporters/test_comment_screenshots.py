"""The PR comment as a reviewer sees it (issue 27, "the comment says why at a glance";
docs/pr-comment.md): three real runs through the CLI — a failing tool test on the example server,
a failing jury test against the loopback judge, the keyless `make demo` run — rendered by GitHub's
own markdown engine (cmark-gfm), opened in headless Chromium, screenshot and read back from the DOM
Chromium built. Set MCPTEST_SCREENSHOTS=DIR to keep the PNGs."""

from __future__ import annotations

import html
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from support.chromium import distinct_rows, dump_dom, screenshot
from support.cli_inproc import cli
from support.cli_run import HEAD, REPO
from support.comment_dom import Dom, gfm_html, read
from support.judge_server import JudgeServer, Verdict
from support.servers import HTTP_TOKEN, example_http_server, free_port

pytestmark = pytest.mark.slow  # the CLI in a subprocess, the example server, Chromium

SIZE = (1000, 2400)
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{{font:14px/1.5 -apple-system,"Segoe UI",sans-serif;color:#1f2328;margin:24px}}
table{{border-collapse:collapse;margin:8px 0}}td,th{{border:1px solid #d0d7de;padding:4px 10px}}
pre{{background:#f6f8fa;padding:12px;font-size:12px;overflow:auto}}code{{background:#eff1f3;padding:1px 4px}}
details{{margin:8px 0}}summary{{cursor:pointer}}</style></head>
<body><article>{body}</article></body></html>"""


def _look(chromium: str, markdown: str, name: str, tmp: Path,
          size: tuple[int, int] = SIZE) -> Dom:
    """GitHub's rendering of the comment in Chromium: a non-blank screenshot, and the DOM."""
    body = gfm_html(markdown)
    page = tmp / f"{name}.html"
    page.write_text(PAGE.format(body=body), encoding="utf-8")
    keep = os.environ.get("MCPTEST_SCREENSHOTS")
    shot = Path(keep) / f"comment-{name}.png" if keep else tmp / f"comment-{name}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    png, urls = screenshot(chromium, page, tmp, size, shot)
    assert urls == []  # the comment asks for nothing
    width, height, distinct = distinct_rows(png)
    assert (width, height) == size and distinct > 100, distinct
    return read(dump_dom(chromium, page, tmp))


def _run(tmp: Path, *args: str, env: dict[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    md, out = tmp / "comment.md", tmp / "run.json"
    done = cli("run", *args, "--no-cache", "--reporter", "md", "--output", md,
                   "--reporter", "json", "--output", out, cwd=REPO,
                   env={"MCPTEST_PYTHON": sys.executable, **(env or {})})
    assert out.is_file(), done.stderr[-3000:]
    return md.read_text(encoding="utf-8"), json.loads(out.read_text(encoding="utf-8"))


def _once(dom: Dom, text: str) -> int:
    return "".join(dom.text).count(text)


def test_a_failing_tool_test_reads_as_one_block(chromium: str, tmp_path: Path) -> None:
    suite = tmp_path / "forecast.yml"
    suite.write_text(HEAD + """tools:
  - name: forecast for Oslo names the city and the wind
    server: ex
    tool: forecast
    args: {city: Oslo}
    expect:
      - target: result.structuredContent.city
        matcher: {exact: Bergen}
      - target: result.structuredContent.humidity
        matcher: {schema: {maximum: 50}}
      - target: result.content[0].text
        matcher: {contains: wind}
        message: the forecast must name the wind
  - name: greet answers
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {exact: "Hello, Ada!"}
""", encoding="utf-8")
    markdown, report = _run(tmp_path, str(suite))
    assert report["summary"]["counts"]["failed"] == 1
    dom = _look(chromium, markdown, "failing-tool", tmp_path)
    assert dom.headline == "❌ mcptest · 1 passed · 1 failed · $0.0000"
    header, *rows = dom.table
    assert header == ["", "test", "check", "result", "judges", "cost"]
    (row,) = rows  # one row for the test, not one per failing check
    assert row[1] == "forecast for Oslo names the city and the wind"
    assert row[2] == "exact result.structuredContent.city · +2 more checks"
    block = dom.block("forecast for Oslo")
    assert block.open and block.summary.endswith("3 checks: exact, schema, contains")
    assert [i.split(" ", 2)[1] for i in block.items] == ["exact", "schema", "contains"]
    assert "note: the forecast must name the wind" in block.items[2]
    # the response once, indented, the text that held JSON shown as JSON (no escaped blob)
    assert block.body.count("response · ") == 1
    response = block.pres[0]
    assert response.startswith("{\n  \"result\": {") and "\\n" not in response
    assert '"text": {\n          "city": "Oslo",' in response
    assert "1 string holding JSON shown parsed" in block.body
    assert _once(dom, 'expected "Bergen", got "Oslo"') == 2  # its row, its block
    assert _once(dom, "92 is greater than the maximum of 50") == 1  # its block


JURORS = {"anthropic/claude-sonnet-4-5": Verdict(score=0.9, reason="names service and tag"),
          "openai/gpt-4o": Verdict(score=0.4, reason="reads like a marketing blurb"),
          "gemini/gemini-2.5-pro": Verdict(score=0.75, reason="internal enough")}


def test_a_failing_jury_test_leads_with_the_votes_and_the_dissent(
        chromium: str, tmp_path: Path) -> None:
    with JudgeServer() as js:
        for model, verdict in JURORS.items():
            js.script(model, [verdict])
        markdown, report = _run(tmp_path, "examples/judges.yml", "--filter", "three-model jury",
                                env=js.gateway_env())
        assert [js.count(m) for m in JURORS] == [1, 1, 1]
    (test,) = report["tests"]
    assert test["status"] == "failed"
    dom = _look(chromium, markdown, "failing-jury", tmp_path)
    assert dom.headline.startswith("❌ mcptest · 0 passed · 1 failed · 1 to review · $")
    (row,) = dom.table[1:]
    assert row[2] == "llm-jury 2/3, quorum 0.67 · +3 more checks"
    assert row[3] == ("passed, escalated · dissent: openai/gpt-4o 0.40: reads like a marketing "
                      "blurb")
    block = dom.block("three-model jury")
    body = block.body
    jury_line = body.index("2/3 passed, quorum 0.67 · verdict passed · ⚠ escalated for review")
    votes = body.index("reads like a marketing blurb")
    checks = body.index(block.items[0])
    assert jury_line < votes < checks  # the why before the checks that read the jury
    juror_rows = [r for r in block.rows if r and r[0] != "juror"]
    assert juror_rows[0][0] == "openai/gpt-4o" and juror_rows[0][3] == "❌ dissents"
    assert [i.split(" ", 2)[2].split(":")[0] for i in block.items] == [
        "jury.agreement", "jury.confidence", "jury.escalate"]
    assert body.count("response · ") == 1  # once for the test, not once per jury.* check
    assert _once(dom, "reads like a marketing blurb") == 2  # the row, the dissenting vote


def test_the_keyless_demo_counts_what_was_not_judged(chromium: str, tmp_path: Path) -> None:
    suites = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "examples").glob("*.yml"))
    with example_http_server(token=HTTP_TOKEN) as served:
        port = served.url.rsplit(":", 1)[1].split("/")[0]
        markdown, report = _run(  # what examples/demo.sh runs
            tmp_path, *suites, "--with-evals", "--max-cost", "0.10", "--skip-tag",
            "expected-failure", env={"MCPTEST_EXAMPLE_PORT": port,
                                     "MCPTEST_EXAMPLE_TOKEN": HTTP_TOKEN,
                                     "MCPTEST_START_PORT": str(free_port())})
    counts = report["summary"]["counts"]
    assert report["summary"]["exit_code"] == 0 and counts["deferred"] > 20, counts
    assert counts["passed"] + counts["deferred"] == counts["total"]
    dom = _look(chromium, markdown, "keyless-demo", tmp_path, (1000, 900))
    n = counts["deferred"]
    assert dom.headline == (f"✅ mcptest · {counts['passed']} passed · {n} judge tests not run: "
                            "no key · $0.0000 of $0.1000 cap")
    assert "deferred" not in dom.headline and dom.table == []  # nothing failed: no table
    # docs/pr-comment.md, "The headline", quotes this run's headline as it is
    doc = (REPO / "docs" / "pr-comment.md").read_text(encoding="utf-8")
    assert f"```text\n{dom.headline}\n```" in doc, dom.headline
    listed = dom.block(f"⏸️ {n} judge tests not run: no key")
    assert not listed.open and len(listed.rows) == 1 + n
    why = "".join(dom.text)
    assert f"{n} judge tests not run, so not measured (never a pass): no " in html.unescape(why)
    assert "OPENAI_API_KEY" in why and "MCPTEST_JUDGE_BASE_URL" in why
    assert dom.block(f"✅ {counts['passed']} passed")
