"""The `html` reporter: self-contained, inert, filterable without JavaScript, seen by Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sample import SECRET, big_report, hostile_report, sample_report
from support.chromium import distinct_rows, screenshot

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


@pytest.mark.parametrize("make", [sample_report, hostile_report], ids=["sample", "hostile"])
def test_chromium_draws_the_report_without_touching_the_network(
    chromium: str, tmp_path: Path, make: Callable[[], Report]
) -> None:
    page = tmp_path / "report.html"
    page.write_text(render(make()), encoding="utf-8")
    png, urls = screenshot(chromium, page, tmp_path)
    assert urls == []
    width, height, distinct = distinct_rows(png)
    assert (width, height) == (1200, 900)
    assert distinct > 100


def test_the_network_check_sees_a_page_that_loads_something(
    chromium: str, tmp_path: Path
) -> None:
    page = tmp_path / "leaky.html"
    page.write_text('<!DOCTYPE html><p>x</p><img src="http://canary.invalid/pixel.png">',
                    encoding="utf-8")
    png, urls = screenshot(chromium, page, tmp_path)
    assert urls == ["http://canary.invalid/pixel.png"]
    assert distinct_rows(png)[2] < 100  # almost blank: one short line of text
