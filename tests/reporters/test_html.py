"""The `html` reporter: self-contained, inert, filterable without JavaScript, seen by Chromium."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import zlib
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sample import SECRET, big_report, hostile_report, sample_report
from support import tools

from mcptest.report.models import Report
from mcptest.reporters import get_reporter
from mcptest.reporters.html import render

CSP = "default-src 'none'; style-src 'unsafe-inline'"
LOADING_TAGS = {"script", "iframe", "img", "link", "object", "embed", "base", "form", "audio",
                "video", "source", "frame", "svg", "image", "track", "meta-refresh"}
URL_ATTRS = {"src", "href", "action", "srcset", "poster", "data", "formaction", "background"}


class _Tags(HTMLParser):
    """Every start tag with its attributes, plus the text of <style>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data


def _parse(text: str) -> _Tags:
    parser = _Tags()
    parser.feed(text)
    parser.close()
    return parser


def _assert_self_contained(text: str) -> _Tags:
    page = _parse(text)
    names = {tag for tag, _ in page.tags}
    assert not names & LOADING_TAGS, names & LOADING_TAGS
    for tag, attrs in page.tags:
        assert not set(attrs) & URL_ATTRS, (tag, attrs)
        assert not any(a.startswith("on") for a in attrs), (tag, attrs)
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            raise AssertionError("meta refresh")
    assert "url(" not in page.style and "@import" not in page.style
    csp = [a.get("content") for t, a in page.tags
           if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp == [CSP]
    return page


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("html_sample.html", render(sample_report()))


def test_registry_names_this_module() -> None:
    assert get_reporter("html") is render


def test_sample_is_self_contained_with_a_strict_csp() -> None:
    text = render(sample_report())
    _assert_self_contained(text)
    assert not re.search(r"https?://", text)


def test_hostile_text_is_escaped_and_masked() -> None:
    text = render(hostile_report())
    page = _assert_self_contained(text)
    template_tags = {tag for tag, _ in _parse(render(sample_report())).tags}
    assert {tag for tag, _ in page.tags} <= template_tags
    assert "<script" not in text.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert SECRET not in text
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)


def test_template_never_evaluates_report_text() -> None:
    base = sample_report()
    tests = [t.model_copy(update={"name": "{{ 7*7 }}"}) for t in base.tests]
    text = render(base.model_copy(update={"tests": tests}))
    assert text.count("{{ 7*7 }}") == len(tests)


def test_status_filters_are_pure_css() -> None:
    text = render(sample_report())
    page = _parse(text)
    radios = [a["id"] for t, a in page.tags if t == "input" and a.get("type") == "radio"]
    assert radios == ["f-all", "f-problem", "f-failed", "f-error", "f-skipped", "f-deferred",
                      "f-nya", "f-review", "f-passed"]
    labels = [a["for"] for t, a in page.tags if t == "label"]
    assert labels == radios
    for key in radios[1:]:
        rule = f"#{key}:checked ~ main .test:not(.{key.removeprefix('f-')}){{display:none}}"
        assert rule in page.style, rule
    classes = [a["class"] or "" for t, a in page.tags if t == "li" and "id" in a]
    assert len(classes) == len(sample_report().tests)
    assert sum("failed" in c.split() for c in classes) == 2
    assert sum("review" in c.split() for c in classes) == 1
    assert sum("problem" in c.split() for c in classes) == 8
    assert "<label for=\"f-failed\">failed (2)</label>" in text


def test_shows_cost_cache_deferrals_jury_and_criteria() -> None:
    text = render(sample_report())
    for piece in ("$0.0123 of $0.0500 cap", "1 verdict(s) from cache", "1 deferred (",
                  "1 skipped by the cost cap", "α 0.00", "escalated for review",
                  "stand-in for <code>openai/gpt-4o-mini</code>", "no-hallucination",
                  "exit 3: a server never became ready"):
        assert piece in text, piece


@pytest.mark.slow
def test_big_report_renders() -> None:
    text = render(big_report(2000))
    assert text.count('<li class="test') == 2000
    _assert_self_contained(text)


# --- Chromium -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, prepared by .ci/prepare-tools.sh in CI (a test installs nothing)."""
    return tools.chromium()


def _open(chromium: str, page: Path, tmp: Path) -> tuple[bytes, list[str]]:
    """Screenshot `page` headless; also the URLs the page itself asked the network for."""
    shot, netlog = tmp / "shot.png", tmp / "net.json"
    cmd = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp / 'profile'}", f"--screenshot={shot}",
        "--window-size=1200,900", "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--log-net-log={netlog}", page.as_uri(),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert shot.is_file(), f"no screenshot; chromium said:\n{done.stderr[-2000:]}"
    log = json.loads(netlog.read_text(encoding="utf-8"))
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = [
        e["params"]["url"] for e in log["events"]
        if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in e.get("params", {})
        # The browser's own housekeeping (update checks, accounts) has no page origin.
        and e["params"].get("initiator") != "not an origin"
        and not e["params"]["url"].startswith("file:")
    ]
    return shot.read_bytes(), urls


def _distinct_rows(png: bytes) -> tuple[int, int, int]:
    """(width, height, distinct filtered scanlines) of an 8-bit RGB(A) PNG, stdlib only.

    A single-colour image has at most a handful of distinct filtered scanlines (one per PNG
    filter type), so many distinct rows means the page drew something.
    """
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    stride = 1 + width * (3 if colour == 2 else 4)
    raw = zlib.decompress(idat)
    assert len(raw) == stride * height
    rows = {raw[i:i + stride] for i in range(0, len(raw), stride)}
    return width, height, len(rows)


@pytest.mark.parametrize("make", [sample_report, hostile_report], ids=["sample", "hostile"])
def test_chromium_draws_the_report_without_touching_the_network(
    chromium: str, tmp_path: Path, make: Callable[[], Report]
) -> None:
    page = tmp_path / "report.html"
    page.write_text(render(make()), encoding="utf-8")
    png, urls = _open(chromium, page, tmp_path)
    assert urls == []
    width, height, distinct = _distinct_rows(png)
    assert (width, height) == (1200, 900)
    assert distinct > 100


def test_the_network_check_sees_a_page_that_loads_something(
    chromium: str, tmp_path: Path
) -> None:
    page = tmp_path / "leaky.html"
    page.write_text('<!DOCTYPE html><p>x</p><img src="http://canary.invalid/pixel.png">',
                    encoding="utf-8")
    png, urls = _open(chromium, page, tmp_path)
    assert urls == ["http://canary.invalid/pixel.png"]
    assert _distinct_rows(png)[2] < 100  # almost blank: one short line of text
