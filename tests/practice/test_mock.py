"""Mock rounds: what a round asks (weak or due drill, cards with follow-ups, pulled ones first),
how answers are scored and rated, which concepts count as missed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tokdrill.content import load_library
from tokdrill.content.model import Library
from tokdrill.practice.mock import (
    DRILL_SHARE,
    DrillHistory,
    answer_rating,
    concepts_missed,
    plan_round,
    question_count,
    round_target,
    score_answer,
)
from tokdrill.progress.records import ConceptResult, MockAnswer, TestOutcome
from tokdrill.scheduling.planner import DueItem, DueQueue

AT = datetime(2026, 1, 5, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library([], use_cache=False, check_symbols=False)


def queue(drills: tuple[DueItem, ...] = (), cards: tuple[DueItem, ...] = ()) -> DueQueue:
    return DueQueue(cards, drills, 10, 10, 2, 2)


def test_the_round_takes_a_weak_drill_then_a_due_one(library: Library) -> None:
    new = DueItem("drill", "bytes-to-unicode", None, 0.0)
    due = DueItem("drill", "wordpiece-tokenize-word", AT, 0.8)
    weak = DueItem("drill", "bpe-encode", AT, 0.9, weak=True)
    assert plan_round(queue((new, due, weak)), library, 45, 0, {}, AT).drill_id == "bpe-encode"  # type: ignore[union-attr]
    assert plan_round(queue((new, due)), library, 45, 0, {}, AT).drill_id == "wordpiece-tokenize-word"  # type: ignore[union-attr]
    assert plan_round(queue((new,)), library, 45, 0, {}, AT).drill_id == "bytes-to-unicode"  # type: ignore[union-attr]


def test_a_drill_failed_lately_comes_first_and_one_passed_today_rests(library: Library) -> None:
    dropout = DueItem("drill", "bpe-dropout", AT - timedelta(days=1), 0.7)
    encode = DueItem("drill", "bpe-encode", AT - timedelta(days=1), 0.7)
    history = {
        "bpe-encode": DrillHistory(last_failed=AT - timedelta(minutes=5)),
        "bpe-dropout": DrillHistory(last_passed=AT - timedelta(minutes=30)),
    }
    plan = plan_round(queue((dropout, encode)), library, 45, 0, history, AT)
    assert plan is not None and plan.drill_id == "bpe-encode"  # just failed, though listed second
    rested = plan_round(queue((dropout,)), library, 45, 0, {"bpe-dropout": history["bpe-dropout"]}, AT)
    assert rested is not None and rested.drill_id != "bpe-dropout"  # passed half an hour ago: another drill
    fixed = {"bpe-encode": DrillHistory(AT - timedelta(days=2), AT - timedelta(days=1))}
    again = plan_round(queue((dropout, encode)), library, 45, 0, fixed, AT)
    assert again is not None and again.drill_id == "bpe-dropout"  # passed since it failed: due order again


def test_the_drill_target_fits_the_round(library: Library) -> None:
    long_one = max(library.drills.values(), key=lambda d: d.target_seconds)
    plan = plan_round(queue((DueItem("drill", long_one.id, AT, 0.5),)), library, 10, 0, {}, AT)
    assert plan is not None and plan.drill_target_seconds <= 10 * 60 * DRILL_SHARE < long_one.target_seconds
    assert round_target(300, 45 * 60) == 300  # a short drill keeps its own target


def test_questions_have_follow_ups_and_pulled_cards_come_first(library: Library) -> None:
    pulled = DueItem(
        "card",
        "bpe-encode-complexity-heap",
        None,
        0.0,
        ConceptResult("bpe-heap-encode", "app", AT, "heap-stale-entries"),
    )
    plan = plan_round(queue(cards=(pulled,)), library, 45, 0, {}, AT)
    assert plan is not None and plan.card_ids[0] == "bpe-encode-complexity-heap"
    assert len(plan.card_ids) == question_count(45) == 4 and question_count(30) == 3
    assert all(library.card(c).follow_ups for c in plan.card_ids)
    assert plan.clock_seconds == 45 * 60
    again = plan_round(queue(cards=(pulled,)), library, 45, 1, {}, AT)
    assert again is not None and again.follow_ups == tuple(1 % len(library.card(c).follow_ups) for c in again.card_ids)


def test_answers_are_scored_by_key_points_and_rated(library: Library) -> None:
    card = library.card("bpe-encode-rank-order")
    full = score_answer(card, " ".join(p.split("|")[0] for p in card.key_points))
    assert full.covered == full.total == len(card.key_points) and answer_rating(full) == 3
    empty = score_answer(card, "")
    assert empty.covered == 0 and answer_rating(empty) == 1
    half = MockAnswer(card.id, None, "", 1, 2)
    assert answer_rating(half) == 2


def test_missed_concepts_come_from_failed_tests_and_weak_answers(library: Library) -> None:
    tests = (
        TestOutcome("t.py::a", "failed", "", ("merge-order",)),
        TestOutcome("t.py::b", "passed", "", ("tie-break",)),
    )
    weak = MockAnswer("impl-return-types", None, "", 0, 4)
    strong = MockAnswer("bpe-deterministic-tie-break", None, "", 4, 4)
    follow = MockAnswer("bpe-deterministic-tie-break", 0, "", 0, 0)
    assert concepts_missed(tests, (weak, strong, follow), library) == ("merge-order", "return-types")


def test_questions_follow_the_drill_when_nothing_is_pulled(library: Library) -> None:
    drill = DueItem("drill", "cl100k-pretokenize", None, 0.0)
    plan = plan_round(queue((drill,)), library, 45, 0, {}, AT)
    assert plan is not None
    checked = set(library.drill("cl100k-pretokenize").concepts)
    assert checked.intersection(library.card(plan.card_ids[0]).concepts)


def test_missed_concepts_are_only_those_the_failed_tests_blame(library: Library) -> None:
    tests = (
        TestOutcome("t.py::order", "failed", "", ("merge-order",)),
        TestOutcome("t.py::unchanged", "passed", "", ("inputs-unchanged",)),
        TestOutcome("t.py::both", "failed", "", ("inputs-unchanged", "merge-order")),
    )
    assert concepts_missed(tests, (), library) == ("merge-order",)  # inputs-unchanged passed its own test
