"""docs/pr-comment.md's example comment is a real run: the page's command, run as written, writes
the comment the page shows (read as GitHub renders it), line for line: the headline, the quote
under it, the table rows (cells the page ends with `…` are prefixes), the open block down to the
response's first lines, and the collapsed lists. The stderr lines carry a clock time, so only
their label is compared. The keyless demo's headline on the same page is checked by
tests/reporters/test_comment_screenshots.py."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO
from support.comment_dom import Block, Dom, gfm_html, read

pytestmark = pytest.mark.slow  # the CLI in a subprocess against the example server

CUT = "…"


def _section() -> tuple[str, str]:
    """The page's command and the comment it shows."""
    doc = (REPO / "docs" / "pr-comment.md").read_text(encoding="utf-8")
    section = doc[doc.index("### An example"):doc.index("## Confidence bands")]
    (command,) = re.findall(r"```sh\n(.*?)\n```", section, re.DOTALL)
    (shown,) = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    return command, shown


def _words(text: str) -> str:
    return " ".join(text.split())


def _same(shown: str, real: str) -> bool:
    """A shown cell is the real one, or its start when the page cut it with `…`."""
    shown = shown.strip()
    return real.startswith(shown.removesuffix(CUT).rstrip()) if shown.endswith(CUT) \
        else shown == real


def _block_lines(lines: list[str], block: Block) -> list[str]:
    """The shown block's lines that differ from the real one (empty when they agree)."""
    body, wrong, para = _words(block.body), [], ""
    pre = (block.pres[0] if block.pres else "").splitlines()
    it = iter(lines)
    for line in it:
        if line.startswith("    "):  # a wrapped line goes on its paragraph
            para += " " + line
            continue
        if para and _words(para) not in body:
            wrong.append(para)
        para = line.replace("  • ", "  ", 1)
        if line.startswith("  response · "):  # then the response's first lines, up to `…`
            shown = []
            for x in it:
                if not x.startswith("    ") or x.strip() == CUT:
                    break
                shown.append(x[4:])
            if pre[:len(shown)] != shown:
                wrong.append("\n".join(shown))
            break
    return wrong


def test_the_example_comment_is_what_its_command_writes(tmp_path: Path) -> None:
    command, shown = _section()
    args = shlex.split(command)
    assert args[:2] == ["mcptest", "run"] and args[-2:] == ["--output", "comment.md"]
    out = tmp_path / "comment.md"
    done = cli(*args[1:-1], out, "--no-cache", cwd=REPO,
                   env={"MCPTEST_PYTHON": sys.executable})
    assert done.returncode == 1, done.stderr[-2000:]  # the page's `exit 1`
    dom: Dom = read(gfm_html(out.read_text(encoding="utf-8")))
    lines = shown.splitlines()

    assert lines[0] == dom.headline
    quote = _words(" ".join(lines[1:lines.index("", 2)]))
    assert quote in _words("".join(dom.text))

    table = [[c.strip() for c in line.strip("|").split("|")] for line in lines
             if line.startswith("| ") and not line.startswith("|  ")]
    real = dom.table[1:]
    assert len(table) == len(real)
    for cells, row in zip(table, real, strict=True):
        assert all(_same(c, r) for c, r in zip(cells, row, strict=False)), (cells, row)

    summaries = [(line[0] == "▼", line[2:]) for line in lines if line[:1] in ("▼", "▶")]
    for is_open, summary in summaries:
        assert [b.open for b in dom.blocks if b.summary == summary] == [is_open], summary
    start = next(i for i, line in enumerate(lines) if line.startswith("▼"))
    end = next(i for i, line in enumerate(lines) if line.startswith("▶"))
    block = dom.block(lines[start][2:])
    assert _block_lines(lines[start + 1:end], block) == []
    assert "server stderr while this test ran:" in block.body
