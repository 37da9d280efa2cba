"""Readiness by the interview date on a fixed clock: FSRS recall on that day, time vs target,
the overall figure and the weakest items."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler

from tokdrill.clock import FixedClock
from tokdrill.progress.records import Attempt
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner

INTERVIEW = date(2026, 1, 15)
INTERVIEW_START = datetime(2026, 1, 15, tzinfo=UTC)


def _fsrs_recall(scheduler: Scheduler, ratings: list[tuple[datetime, Rating]]) -> float:
    """Independent computation with the fsrs package itself."""
    card = Card(card_id=1, due=ratings[0][0])
    for when, rating in ratings:
        card, _ = scheduler.review_card(card, rating, review_datetime=when)
    return scheduler.get_card_retrievability(card, INTERVIEW_START)


def test_no_interview_date_means_no_readiness(planner: Planner, catalog: Catalog) -> None:
    assert planner.readiness(catalog) is None


def test_readiness_on_the_interview_day(planner: Planner, store: Store, clock: FixedClock, catalog: Catalog) -> None:
    store.set_interview_date(INTERVIEW)
    t0 = clock.now()
    planner.review_card("b1", Rating.Good, 2.0)
    planner.review_card("b2", Rating.Again, 2.0)
    end = clock.now()
    planner.record_attempt(Attempt("bpe-train", "recall", end - timedelta(seconds=800), end, 800.0, 600, True, 2))
    planner.record_attempt(Attempt("wordpiece", "recall", end - timedelta(seconds=100), end, 100.0, 900, False, 5))
    r = planner.readiness(catalog)
    cards = Scheduler(enable_fuzzing=False)
    drills = Scheduler(enable_fuzzing=False, learning_steps=(), relearning_steps=())
    b1 = _fsrs_recall(cards, [(t0, Rating.Good)])
    b2 = _fsrs_recall(cards, [(t0, Rating.Again)])
    bpe = _fsrs_recall(drills, [(end, Rating.Hard)])  # passed over target
    wp = _fsrs_recall(drills, [(end, Rating.Again)])
    assert r.days_left == 10
    assert r.decks["bpe"] == pytest.approx((b1 + b2 + 0.0) / 3)
    assert r.decks["wp"] == 0.0  # never seen
    by_id = {d.item_id: d for d in r.drills}
    assert by_id["bpe-train"].recall == pytest.approx(bpe)
    assert by_id["bpe-train"].score == pytest.approx(bpe * 600 / 800)  # slower than target
    assert (by_id["bpe-train"].latest_seconds, by_id["bpe-train"].latest_passed) == (800.0, True)
    assert by_id["wordpiece"].recall == pytest.approx(wp)
    assert by_id["wordpiece"].score == 0.0  # latest attempt failed
    card_mean = (b1 + b2) / 6
    drill_mean = (bpe * 600 / 800 + 0.0) / 2
    assert r.overall == pytest.approx((card_mean + drill_mean) / 2)
    assert 0 < r.overall < 1
    assert [w.item_id for w in r.weakest] == ["b3", "w1", "w2", "w3", "wordpiece"]


def test_recall_falls_as_the_interview_moves_away(planner: Planner, store: Store, catalog: Catalog) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    store.set_interview_date(date(2026, 1, 10))
    near = planner.readiness(catalog).decks["bpe"]
    store.set_interview_date(date(2026, 3, 10))
    far = planner.readiness(catalog).decks["bpe"]
    assert near > far > 0


def test_readiness_json_shape(planner: Planner, store: Store, catalog: Catalog) -> None:
    store.set_interview_date(INTERVIEW)
    doc = planner.readiness(catalog).to_json()
    assert doc["interview_date"] == "2026-01-15" and doc["overall"] == 0.0
    assert set(doc["decks"]) == {"bpe", "wp"} and len(doc["weakest"]) == 5


def test_no_readiness_once_the_interview_day_has_passed(
    planner: Planner, store: Store, clock: FixedClock, catalog: Catalog
) -> None:
    store.set_interview_date(date(2026, 1, 6))
    clock.current = datetime(2026, 1, 6, 23, 0, tzinfo=UTC)
    assert planner.readiness(catalog).days_left == 0
    clock.advance(hours=2)
    assert planner.readiness(catalog) is None
