"""The fenced blocks of the project's pages (README.md, examples/README.md, docs/*.md), found
with markdown-it-py, each with the `<!-- doc-test: … -->` annotation written on the line right
above its fence (the grammar is in tests/docs/test_doc_examples.py's docstring)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = frozenset({"sh", "yaml", "json", "csv", "ini", "toml", "python", "text"})
KINDS = frozenset({"skip", "file", "excerpt", "run", "exit", "judge", "workflow", "docker"})
_NOTE = re.compile(r"<!--\s*doc-test:(?P<body>.*?)-->", re.DOTALL)


def pages(root: Path = REPO) -> list[Path]:
    """Every page whose blocks run: the README, the examples' README and docs/*.md."""
    return [root / "README.md", root / "examples" / "README.md",
            *sorted((root / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    page: str
    """The page's path relative to the repository (`docs/suites.md`)."""
    line: int
    """Line of the opening fence, from 1."""
    lang: str
    text: str
    notes: dict[str, str] = field(default_factory=dict)
    """The annotation's parts: kind -> argument (`{"file": "suite.yml", "exit": "1"}`)."""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


class DocError(AssertionError):
    """A page breaks the rules of the doc test itself (an unknown language or annotation)."""


def parse_note(body: str, where: str) -> dict[str, str]:
    notes: dict[str, str] = {}
    body, skip, reason = body.partition("skip ")  # a reason may hold `;`: skip comes last
    if skip:
        notes["skip"] = reason.strip()
    for part in filter(str.strip, body.split(";")):
        kind, _, arg = part.strip().partition(" ")
        if kind not in KINDS:
            raise DocError(f"{where}: unknown doc-test annotation {kind!r} (known: "
                           f"{', '.join(sorted(KINDS))})")
        notes[kind] = arg.strip()
    if body.strip().endswith("skip") or ("skip" in notes and not notes["skip"]):
        raise DocError(f"{where}: `skip` needs a reason (`<!-- doc-test: skip why -->`)")
    return notes


def blocks(path: Path, root: Path = REPO) -> list[Block]:
    """The page's fenced blocks in order. A stray annotation (not right above a fence), a block
    without a language or an indented code block is a `DocError`."""
    page = path.relative_to(root).as_posix()
    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    found: list[Block] = []
    attached: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.type == "code_block":
            raise DocError(f"{page}:{tok.map[0] + 1 if tok.map else 0}: an indented code block; "
                           "write a fenced block with a language")
        if tok.type != "fence" or tok.map is None:
            continue
        where = f"{page}:{tok.map[0] + 1}"
        lang = tok.info.strip().split(" ")[0]
        if lang not in LANGUAGES:
            raise DocError(f"{where}: fenced block with language {lang or 'none'!r}; use one "
                           f"of {', '.join(sorted(LANGUAGES))}")
        notes: dict[str, str] = {}
        prev = tokens[i - 1] if i else None
        if (prev is not None and prev.type == "html_block" and prev.map is not None
                and prev.map[1] == tok.map[0] and (m := _NOTE.search(prev.content))):
            notes = parse_note(m["body"], where)
            attached.add(i - 1)
        found.append(Block(page, tok.map[0] + 1, lang, tok.content, notes))
    for i, tok in enumerate(tokens):
        html = [tok.content] if tok.type == "html_block" and i not in attached else [
            c.content for c in tok.children or [] if c.type == "html_inline"]
        if any(_NOTE.search(h) for h in html):
            line = tok.map[0] + 1 if tok.map else 0
            raise DocError(f"{page}:{line}: a doc-test annotation must stand on the line right "
                           "above a fence")
    return found


def commands(text: str) -> list[str]:
    """An sh block's commands: one per line, `\\`-continued lines joined, comments and blank
    lines left out."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = pending + raw
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1] + " "
            continue
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    if pending.strip():
        out.append(pending.strip())
    return out
