"""A failed check blames only what failed: the concept of a test dedicated to it, and of a test
tagged with several only those no passing dedicated test clears."""

from __future__ import annotations

from datetime import UTC, datetime

from tokdrill.practice.blame import blamed_concepts, concept_results
from tokdrill.progress.records import TestOutcome

AT = datetime(2026, 1, 5, tzinfo=UTC)


def t(name: str, outcome: str, *concepts: str) -> TestOutcome:
    return TestOutcome(name, outcome, "", concepts)


def test_a_dedicated_test_blames_its_concept() -> None:
    assert blamed_concepts([t("a", "failed", "merge-order"), t("b", "passed", "inputs-unchanged")]) == {
        "a": ("merge-order",)
    }


def test_a_multi_concept_test_spares_concepts_its_dedicated_tests_cleared() -> None:
    # A greedy Viterbi: the dedicated log-space and unsegmentable-word tests pass, the search fails.
    tests = [
        t("greedy", "failed", "viterbi-not-greedy"),
        t("log", "passed", "log-space"),
        t("unseg", "passed", "unsegmentable-word"),
        t("random", "failed", "viterbi-not-greedy", "log-space", "unsegmentable-word"),
    ]
    assert blamed_concepts(tests) == {"greedy": ("viterbi-not-greedy",), "random": ("viterbi-not-greedy",)}
    failed = [r.concept for r in concept_results("viterbi-segment", "check", AT, tests) if r.failed]
    assert failed == ["viterbi-not-greedy"]


def test_a_multi_concept_test_blames_a_concept_convicted_by_its_dedicated_test() -> None:
    tests = [
        t("order", "failed", "merge-order"),
        t("unchanged", "failed", "inputs-unchanged", "merge-order"),  # fails because the output is wrong
    ]
    assert blamed_concepts(tests)["unchanged"] == ("merge-order",)


def test_an_uncleared_concept_is_blamed_when_nothing_convicts() -> None:
    tests = [t("mixed", "failed", "tie-break", "merge-order"), t("ties", "passed", "tie-break")]
    assert blamed_concepts(tests) == {"mixed": ("merge-order",)}


def test_a_failure_no_dedicated_test_explains_blames_the_main_concept() -> None:
    tests = [
        t("mixed", "failed", "tie-break", "merge-order"),
        t("a", "passed", "tie-break"),
        t("b", "passed", "merge-order"),
    ]
    assert blamed_concepts(tests) == {"mixed": ("tie-break",)}


def test_a_failure_explained_elsewhere_blames_nothing_more() -> None:
    tests = [
        t("unseg", "failed", "unsegmentable-word"),
        t("greedy", "passed", "viterbi-not-greedy"),
        t("log", "passed", "log-space"),
        t("random", "failed", "viterbi-not-greedy", "log-space"),
    ]
    assert blamed_concepts(tests) == {"unseg": ("unsegmentable-word",), "random": ()}
    results = {r.concept: r.failed_tests for r in concept_results("d", "app", AT, tests)}
    assert results == {"unsegmentable-word": ("unseg",), "viterbi-not-greedy": (), "log-space": ()}


def test_every_checked_concept_gets_one_result_and_passes_have_none_failed() -> None:
    tests = [t("a", "passed", "merge-order"), t("b", "error", "round-trip")]
    results = concept_results("d", "check", AT, tests)
    assert [(r.concept, r.failed_tests) for r in results] == [("merge-order", ()), ("round-trip", ("b",))]
