"""One jury's agreement sees the votes that decide it (docs/jury.md, "One jury's agreement"), and
the decision keeps every worked example of the jury-consensus document
(/work/shared/seeds: "Jury consensus": the quorum examples, the 0.9/0.9/0.05 split that must be
flagged, a confident unanimous jury that never warns, a single juror's undefined agreement)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcptest.grade.agreement import decision_agreement, votes_alpha
from mcptest.grade.decision import Ballot, JuryRule, decide
from mcptest.grade.jury import decision_analytics

THRESHOLD = 0.7


def _jury(scores: list[float], quorum: float = 0.5, generator: str | None = None,
          models: list[str] | None = None):  # type: ignore[no-untyped-def]
    ballots = [Ballot(passed=s >= THRESHOLD, answer=s, ratings=(s,)) for s in scores]
    d = decide(ballots, JuryRule(how="quorum", quorum=quorum))
    jurors = models or ["gpt-4o", "claude-sonnet-4-5", "gemini-2.5-pro", "mistral-large",
                        "llama-3.3-70b"][:len(scores)]
    return d, decision_analytics(d, juror_models=jurors, generator_model=generator,
                                 quorum=quorum)


@pytest.mark.parametrize(("scores", "answers", "votes", "band"), [
    ([0.72, 0.75, 0.65], 0.9684, -3.0, "low"),   # the 2–1 split that read "high"
    ([0.8, 0.9, 0.85], 0.97, 1.0, "high"),
    ([0.9, 0.9, 0.05], -1.89, -3.0, "low"),
    ([1.0, 1.0, 0.0], -3.0, -3.0, "low"),
    ([1.0, 1.0, 1.0, 1.0, 0.0], -1.4, -1.4, "low"),
    ([0.9, 0.9, 0.9], 1.0, 1.0, "high"),
])
def test_the_worked_examples_of_docs_jury(scores: list[float], answers: float, votes: float,
                                          band: str) -> None:
    _, a = _jury(scores)
    assert a.answers_raw == pytest.approx(answers, abs=5e-4)
    assert a.votes_raw == pytest.approx(votes, abs=1e-9)
    assert a.agreement_raw == pytest.approx(min(answers, votes), abs=5e-4)
    assert a.confidence == band
    assert a.escalate is (band == "low")


def test_a_labeled_jury_reads_its_labels_and_its_votes() -> None:
    ballots = [Ballot(passed=True, answer=lab, labels=(lab,))
               for lab in ("friendly", "friendly", "neutral")]
    rule = JuryRule(how="plurality", passing=frozenset({"neutral", "friendly"}),
                space=("rude", "neutral", "friendly"), categories=3)
    d = decide(ballots, rule)
    assert d.outcome == "passed" and d.answer == "friendly"
    assert d.agreement is not None
    assert d.agreement.answers_raw == pytest.approx(0.0)
    assert d.agreement.votes_raw == 1.0 and d.agreement.band == "low"
    unknown = decide(ballots, JuryRule(how="plurality", passing=None,
                                   space=("rude", "neutral", "friendly"), categories=3))
    assert unknown.outcome == "unknown"
    assert unknown.agreement is not None and unknown.agreement.votes_raw is None


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(2, 59).flatmap(lambda m: st.tuples(st.just(m), st.integers(1, m - 1))),
       st.lists(st.floats(0.0, 1.0), min_size=59, max_size=59))
def test_a_jury_whose_votes_split_never_reads_high(split: tuple[int, int],
                                                   noise: list[float]) -> None:
    """Whatever the scores (here any in [0, 1], each on the side of the threshold its vote
    says), a split of the votes among fewer than 60 jurors is never `high`."""
    m, passes = split
    scores = [0.7 + 0.3 * noise[i] if i < passes else 0.699 * noise[i] for i in range(m)]
    d, a = _jury(scores, models=[f"m{i}" for i in range(m)])
    assert 0 < d.passed_n < d.decisive
    assert a.confidence != "high"
    assert votes_alpha([True] * passes + [False] * (m - passes)) == pytest.approx(
        1 - 12 * passes * (m - passes) / (m * (m - 1)))


def test_all_agree_reads_one_in_a_jury() -> None:
    a = decision_agreement([[0.5], [0.5]], [(), ()], [False, False], 2)
    assert a.raw == 1.0 and a.band == "high"


# ------------------------------------------------- the jury-consensus document's worked examples

@pytest.mark.parametrize(("votes", "quorum", "outcome"), [
    ([True, True, False], 0.67, "passed"),      # 2/3 = 0.667 meets 0.67
    ([True, False, False], 0.67, "failed"),     # 1/3 = 0.333
    ([True, True, True, True, False], 1.0, "failed"),  # unanimous: one dissent fails
    ([True, True, False, False], 0.5, "passed"),  # an even split passes at the default 0.5
    ([True, True, False, False], 0.6, "failed"),
])
def test_the_quorum_examples_of_the_jury_consensus_document(votes: list[bool], quorum: float,
                                                            outcome: str) -> None:
    d = decide([Ballot(passed=v) for v in votes], JuryRule(how="quorum", quorum=quorum))
    assert d.outcome == outcome


def test_a_majority_pass_on_a_split_is_flagged_and_a_unanimous_one_never_warns() -> None:
    split, analytics = _jury([0.9, 0.9, 0.05], generator="openai/gpt-4.1")
    assert split.outcome == "passed"  # the quorum picked the verdict, it is kept
    assert analytics.escalate and analytics.confidence == "low"
    assert analytics.bias_warning is not None  # a same-family juror on a split
    confident, calm = _jury([0.9, 0.92, 0.91], generator="openai/gpt-4.1")
    assert confident.outcome == "passed" and calm.confidence == "high"
    assert calm.same_family and calm.bias_warning is None


def test_a_single_juror_leaves_agreement_undefined_low_and_escalated() -> None:
    _, a = _jury([0.9])
    assert a.agreement is None and a.confidence == "low" and a.escalate
