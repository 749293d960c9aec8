"""Redaction: secrets never reach any output format (all nine, through the registry)."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sample import SECRET, hostile_report, sample_report

from mcptest.report.models import Report
from mcptest.report.redact import REDACTED, redact_patterns, redact_report, redact_text
from mcptest.reporters import REPORTERS, Reporter, get_reporter


def _reporter_or_skip(name: str) -> Reporter:
    """The format's render function; skip only while its module does not exist yet."""
    try:
        importlib.import_module(REPORTERS[name])
    except ModuleNotFoundError as exc:
        if exc.name == REPORTERS[name]:
            pytest.skip(f"{REPORTERS[name]} is not written yet")
        raise
    return get_reporter(name)


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_the_secret_reaches_no_format(fmt: str) -> None:
    render = _reporter_or_skip(fmt)
    out = render(redact_report(hostile_report(), [SECRET]))
    assert SECRET not in out
    assert "SECRET123456789" not in out


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_patterns_alone_catch_it_in_saved_reports(fmt: str) -> None:
    render = _reporter_or_skip(fmt)
    assert "SECRET123456789" not in render(redact_patterns(hostile_report()))


def test_without_redaction_the_secret_is_there() -> None:
    """The control: the fixture really leaks, so the tests above can fail."""
    assert SECRET in get_reporter("json")(hostile_report())


def test_every_string_field_is_covered() -> None:
    report = redact_report(hostile_report(), [SECRET])
    text = report.model_dump_json()
    assert SECRET not in text
    test = report.tests[0]
    assert test.args == {"q": REDACTED, "note": "]]>--><!--"}
    assert SECRET not in str(test.response)
    assert test.assertions[0].spec == {"rubric": f"no | pipes {REDACTED}"}
    assert test.assertions[0].actual == f"token={REDACTED}"
    vote = test.assertions[0].judge.votes[0]  # type: ignore[union-attr]
    assert vote.reason is not None and vote.reason.startswith(f"Leaked key {REDACTED} in output")
    assert report.servers[0].server_name == f"evil <b>{REDACTED}</b>"
    assert report.tests[2].server_stderr == f"Authorization: Bearer {REDACTED}"
    assert SECRET not in report.warnings[0]


def test_redaction_is_pure() -> None:
    original = hostile_report()
    redact_report(original, [SECRET])
    assert original == hostile_report()
    assert SECRET in original.model_dump_json()


def test_a_report_without_secrets_is_unchanged() -> None:
    assert redact_report(sample_report(), ["not-in-there"]) == sample_report()


def test_clean_rows_are_shared_not_copied() -> None:
    """A big clean run is not held twice while its reports render (docs/reports.md, "Scale"):
    rows and values without a secret come back as the same objects; only the dirty ones are
    new, and the input keeps its secret."""
    original = hostile_report()
    clean_row = original.tests[1]
    assert SECRET not in clean_row.model_dump_json()
    redacted = redact_report(original, [SECRET])
    assert redacted.tests[1] is clean_row
    assert redacted.tests[0] is not original.tests[0]
    assert redacted.tests[0].location is original.tests[0].location
    assert SECRET in original.tests[0].model_dump_json()
    assert SECRET not in redacted.tests[0].model_dump_json()
    same = sample_report()
    assert redact_report(same, ["not-in-there"]) is same


def test_declared_values_are_redacted_whatever_their_shape() -> None:
    assert redact_text("pw is hunter2-pass!", ["hunter2-pass!"]) == f"pw is {REDACTED}"
    assert redact_text("a.b*c and a.b*c", ["a.b*c"]) == f"{REDACTED} and {REDACTED}"


def test_short_values_are_not_redacted() -> None:
    assert redact_text("the abc of it", ["abc", ""]) == "the abc of it"


def test_longer_secret_wins_over_its_prefix() -> None:
    assert redact_text("x=longsecret", ["long", "longsecret"]) == f"x={REDACTED}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key sk-proj-abcdefghijklmnop1234 end", f"key {REDACTED} end"),
        ("key sk-ant-api03-abcdefghij_KLMNOP-1234 end", f"key {REDACTED} end"),
        ("ghp_" + "a" * 36, REDACTED),
        ("gho_" + "B" * 36, REDACTED),
        ("ghs_" + "c1" * 18, REDACTED),
        ("github_pat_11ABCDEFG0_" + "x" * 40, REDACTED),
        ("aws AKIAIOSFODNN7EXAMPLE here", f"aws {REDACTED} here"),
        ("AIza" + "Sy" + "D" * 33, REDACTED),
        ("Authorization: Bearer abc.def-ghi_jkl", f"Authorization: Bearer {REDACTED}"),
        ("api_key=abcd1234&x=1", f"api_key={REDACTED}&x=1"),
        ('{"apiKey": "zzzz9999"}', f'{{"apiKey": "{REDACTED}"}}'),
        ("X-API-Key: 0123456789", f"X-API-Key: {REDACTED}"),
        ("password: s3cr3t!!", f"password: {REDACTED}"),
    ],
)
def test_key_patterns(text: str, expected: str) -> None:
    assert redact_text(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "task-list sk-short", "the token count is 12", "tokens: 4096", "mask-ant-like",
        "conversation.tokens.total", "mask-ant-something-long-enough", "AKIA-not-a-key", "Bearer", "api_key=abc",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_text(text) == text


def test_redacted_report_is_still_a_valid_report() -> None:
    report: Report = redact_report(hostile_report(), [SECRET])
    assert Report.model_validate_json(report.model_dump_json()) == report


@settings(max_examples=80, deadline=None)
@given(before=st.text(max_size=40), after=st.text(max_size=40))
def test_a_declared_secret_never_survives(before: str, after: str) -> None:
    secret = "s3cr3t-VALUE-42"
    out = redact_text(before + secret + after, [secret])
    assert secret not in out


@pytest.mark.parametrize("key", ["api_key", "apiKey", "x-api-key", "db_password", "client_secret",
                                 "OPENAI_API_KEY", "accessToken"])
def test_a_json_key_named_like_a_secret_loses_its_value(key: str) -> None:
    from mcptest.report.redact import redact_value

    assert redact_value({key: "zq81-value", "other": "zq81-value!"}) == {
        key: REDACTED, "other": f"{REDACTED}!"}


@pytest.mark.parametrize("key", ["password_hint", "tokens", "keyword", "name", "token_count"])
def test_other_keys_keep_their_value(key: str) -> None:
    from mcptest.report.redact import redact_value

    assert redact_value({key: "zq81-value"}) == {key: "zq81-value"}


def test_a_value_caught_in_a_rows_text_goes_from_the_whole_row_and_only_that_row() -> None:
    """`api_key=…` in the answer's text: the same value under a neutral key of
    `structuredContent`, in the assertion's `actual` and in a judge's reason goes too; another
    row that happens to hold the same word keeps it (the scope is the row)."""
    report = hostile_report()
    row = report.tests[1].model_copy(update={
        "response": {"result": {"content": [{"type": "text", "text": "api_key=plainword42"}],
                                "structuredContent": {"credential": "plainword42"}}},
        "message": "actual was plainword42"})
    other = report.tests[2].model_copy(update={"message": "plainword42 is fine here"})
    clean = redact_report(report.model_copy(update={"tests": [report.tests[0], row, other]}))
    result = clean.tests[1].response["result"]  # type: ignore[index]
    assert result["structuredContent"] == {"credential": REDACTED}
    assert clean.tests[1].message == f"actual was {REDACTED}"
    assert clean.tests[2].message.startswith("plainword42 is fine here")


@pytest.mark.parametrize(("text", "redacted"), [
    ("judge http://bob:pw@127.0.0.1:9/v1 down", "judge http://bob:[REDACTED]@127.0.0.1:9/v1 down"),
    ("http://admin:P@ssw0rd!@db/x", "http://admin:[REDACTED]@db/x"),  # to the last @
    ("http:\\/\\/admin:hunter2@db", "http:\\/\\/admin:[REDACTED]@db"),  # JSON's escaped slashes
    ("http://u:pa:ss@[::1]:80/", "http://u:[REDACTED]@[::1]:80/"),
    ("redis://:pw@cache", "redis://:[REDACTED]@cache"),
    ("https://ghp_0123456789abcdefghijkl@github.com/x", "https://[REDACTED]@github.com/x"),
    # not userinfo: a name, an e-mail after a URL, an @ in a query or a path
    ("postgres://postgres@localhost/db", "postgres://postgres@localhost/db"),
    ('{"homepage":"https://example.org","contact":"alice@example.org"}',
     '{"homepage":"https://example.org","contact":"alice@example.org"}'),
    ("https://api.example.com?email=alice.smith@example.com",
     "https://api.example.com?email=alice.smith@example.com"),
    ("https://example.com:8443?to=bob@x.com", "https://example.com:8443?to=bob@x.com"),
    ("x https://a.b/c@d", "x https://a.b/c@d"),
])
def test_a_urls_userinfo_password_goes_and_nothing_else(text: str, redacted: str) -> None:
    assert redact_text(text) == redacted

