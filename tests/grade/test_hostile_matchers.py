"""Matchers over hostile input: a runaway regex stops at its time bound, a schema never fetches."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pydantic import TypeAdapter

from mcptest.evals.gates import when_holds
from mcptest.grade import bounded_regex
from mcptest.grade.deterministic import evaluate
from mcptest.suite.models import Matcher, WhenRegex

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

MATCHER = TypeAdapter(Matcher)
RUNAWAY = "(a|aa)+$"
TEXT = "a" * 64 + "!"  # ~10^13 ways to split the a's before `$` fails: never ends unbounded


def test_a_catastrophic_regex_fails_with_a_reason_instead_of_hanging() -> None:
    verdict = evaluate(MATCHER.validate_python({"regex": RUNAWAY}), TEXT)
    assert not verdict.passed
    assert verdict.message is not None
    assert f"matching /{RUNAWAY}/ took longer than 1s and was stopped" in verdict.message


def test_a_catastrophic_regex_inside_not_is_no_pass() -> None:
    # `not` of a match that never finished must not turn into a pass.
    verdict = evaluate(MATCHER.validate_python({"not": {"regex": RUNAWAY}}), TEXT)
    assert not verdict.passed
    assert "took longer than 1s" in (verdict.message or "")


def test_the_issues_pattern_ends_as_a_plain_mismatch() -> None:
    # `(a+)+$` (issue 16) hung `re`; the `regex` engine answers it outright.
    verdict = evaluate(MATCHER.validate_python({"regex": "(a+)+$"}), TEXT)
    assert not verdict.passed
    assert (verdict.message or "").startswith("expected a match for /(a+)+$/")


def test_bounded_search_still_matches_like_re() -> None:
    assert bounded_regex.search(r"^\d+ items?$", "12 items")
    assert not bounded_regex.search(r"(?i)^OSLO$", "Bergen")
    assert bounded_regex.search(r"(?i)^OSLO$", "oslo")


def test_a_runaway_rubric_predicate_does_not_apply() -> None:
    assert when_holds(WhenRegex(regex=RUNAWAY), TEXT) is False
    assert when_holds(WhenRegex(regex="a+!"), TEXT) is True


class _Counter(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def schema_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/schema.json"
    finally:
        server.shutdown()
        server.server_close()


def test_a_remote_ref_is_a_load_error_and_never_fetched(schema_server: str) -> None:
    with pytest.raises(ValueError, match="does not resolve within this schema"):
        MATCHER.validate_python({"schema": {"$ref": schema_server}})
    # Even a matcher built around the check (as a stale model could be) never fetches.
    built = MATCHER.validate_python({"schema": {"type": "object"}})
    built.schema_ = {"$ref": schema_server}
    verdict = evaluate(built, 1)
    assert not verdict.passed
    assert "does not resolve within it" in (verdict.message or "")
    assert _Counter.hits == 0


def test_local_refs_still_work() -> None:
    m = MATCHER.validate_python({"schema": {"$ref": "#/$defs/n", "$defs": {"n": {"type": "number"}}}})
    assert evaluate(m, 3).passed
    assert not evaluate(m, "x").passed
