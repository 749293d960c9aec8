"""The PR comment as GitHub shows it, read back for assertions: markdown rendered by cmark-gfm
(GitHub's own engine) to HTML, and the headline, the review table and each top-level
`<details>` of that HTML (or of the DOM Chromium built from it, tests/support/chromium.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options


@dataclass
class Block:
    """A top-level `<details>` of the rendered comment."""

    summary: str = ""
    open: bool = False
    text: list[str] = field(default_factory=list)
    pres: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)

    @property
    def body(self) -> str:
        return "".join(self.text)


class Dom(HTMLParser):
    """The headline, the first table's rows and each top-level `<details>` of a DOM."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headline = ""
        self.table: list[list[str]] = []
        self.blocks: list[Block] = []
        self.text: list[str] = []
        self._stack: list[str] = []
        self._depth = 0  # of <details>
        self._buf: list[str] | None = None
        self._tables = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._stack.append(tag)
        if tag == "details":
            self._depth += 1
            if self._depth == 1:
                self.blocks.append(Block(open=any(k == "open" for k, _ in attrs)))
        elif tag == "table" and self._depth == 0:
            self._tables += 1
        elif tag == "tr":
            row: list[str] = []
            if self._depth == 0 and self._tables == 1:
                self.table.append(row)
            elif self._depth:
                self.blocks[-1].rows.append(row)
        if tag in ("h3", "summary", "pre", "li", "td", "th"):
            self._buf = []

    def handle_endtag(self, tag: str) -> None:
        while self._stack and self._stack.pop() != tag:
            pass
        text = "".join(self._buf or []).strip()
        if tag == "details":
            self._depth -= 1
        elif tag == "h3" and not self.headline:
            self.headline = text
        elif tag == "summary" and self._depth == 1:
            self.blocks[-1].summary = text
        elif tag == "pre" and self._depth:
            self.blocks[-1].pres.append("".join(self._buf or []))
        elif tag == "li" and self._depth:
            self.blocks[-1].items.append(text)
        elif tag in ("td", "th"):
            target = self.table if self._depth == 0 and self._tables == 1 else (
                self.blocks[-1].rows if self._depth else None)
            if target:
                target[-1].append(text)
        if tag in ("h3", "summary", "pre", "li", "td", "th"):
            self._buf = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._buf is not None:
            self._buf.append(data)
        if self._depth:
            self.blocks[-1].text.append(data)

    def block(self, name: str) -> Block:
        (found,) = [b for b in self.blocks if name in b.summary]
        return found


def gfm_html(markdown: str) -> str:
    """The comment's HTML as GitHub renders it (raw HTML kept: the comment writes `<details>`)."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def read(html: str) -> Dom:
    dom = Dom()
    dom.feed(html)
    return dom
