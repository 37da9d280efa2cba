"""Stats numbers on a small dataset whose answers are worked out by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from factories import make_attempt
from fsrs import Rating

from tokdrill.clock import FixedClock
from tokdrill.practice.due import due_counts, due_queue
from tokdrill.practice.stats import compute_stats
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner

CATALOG = Catalog(
    drill_targets={"bpe-train": 600, "wordpiece": 900, "unigram": 1200},
    decks={"bpe": ("b1", "b2", "b3"), "wp": ("w1",)},
    titles={"bpe-train": "BPE training", "bpe": "BPE deck"},
)


def _dataset(store: Store, clock: FixedClock) -> None:
    store.set_timezone("UTC")
    planner = Planner(store, clock)
    # bpe-train, one attempt a day: (seconds, passed)
    for secs, passed in [(500, True), (700, False), (400, True), (650, True), (300, False)]:
        clock.advance(days=1)
        planner.record_attempt(make_attempt("bpe-train", at=clock.now(), seconds=secs, passed=passed, target=600))
    for secs in (400, 100, 300, 200):
        clock.advance(hours=1)
        planner.record_attempt(make_attempt("wordpiece", at=clock.now(), seconds=secs, target=900))
    store.add_attempt(make_attempt("old-drill", at=clock.now() - timedelta(days=30), seconds=50, target=120))
    for card, rating in [("b1", 3), ("b1", 1), ("b1", 4), ("b2", 2)]:
        clock.advance(minutes=20)
        planner.review_card(card, Rating(rating), 5.0)


def test_stats_of_a_known_dataset(store: Store, clock: FixedClock) -> None:
    _dataset(store, clock)
    stats = compute_stats(store, CATALOG, clock)
    bpe, wp, uni, old = stats.drills
    assert (bpe.drill_id, bpe.title, bpe.attempts, bpe.passes) == ("bpe-train", "BPE training", 5, 3)
    assert (bpe.best_seconds, bpe.median_seconds) == (400.0, 500.0)
    assert (bpe.latest_seconds, bpe.latest_passed) == (300.0, False)
    assert bpe.trend == (500.0, 400.0, 650.0)
    assert (wp.median_seconds, wp.best_seconds, wp.trend) == (250.0, 100.0, (400.0, 100.0, 300.0, 200.0))
    assert (uni.attempts, uni.best_seconds, uni.latest_seconds, uni.due) == (0, None, None, None)
    assert (old.drill_id, old.retired, old.attempts, old.target_seconds) == ("old-drill", True, 1, 120)
    assert stats.retired.drills == ("old-drill",)
    deck_bpe, deck_wp = stats.decks
    assert (deck_bpe.title, deck_bpe.cards_total, deck_bpe.cards_seen, deck_bpe.reviews) == ("BPE deck", 3, 2, 4)
    assert deck_bpe.retention == 0.5
    assert (deck_wp.cards_seen, deck_wp.retention) == (0, None)
    assert deck_wp.due_now == 1  # its one card is new and within today's new-card limit
    assert sum(k.due_now for k in stats.decks) == stats.due.cards  # the decks split Today's count
    assert (stats.total_attempts, stats.total_reviews) == (10, 4)
    assert stats.streak_days == 5  # Jan 6..10, today included
    assert len(stats.forecast) == 14 and len(deck_bpe.forecast) == 14
    assert stats.readiness is None


def test_due_now_and_readiness_appear_when_relevant(store: Store, clock: FixedClock) -> None:
    _dataset(store, clock)
    clock.advance(days=60)
    store.set_interview_date(date(2026, 3, 30))
    stats = compute_stats(store, CATALOG, clock)
    assert stats.due == due_counts(due_queue(Planner(store, clock), CATALOG))  # Today's count
    assert stats.due.cards - stats.due.new_cards == 2  # b1 and b2, reviewed before, are due again
    assert stats.due.drills - stats.due.new_drills == 2  # both tried drills are due by now
    assert stats.due.new_drills == 1  # unigram was never tried
    assert stats.forecast[0] == 4
    assert stats.readiness is not None and stats.readiness.interview_date == date(2026, 3, 30)
    doc = stats.to_json()
    assert doc["due_now"] == stats.due.to_json()
    assert doc["readiness"]["decks"]["wp"] == 0.0
    assert doc["retired"] == {"drills": ["old-drill"], "cards": []}


def test_empty_store_gives_empty_numbers(store: Store, clock: FixedClock) -> None:
    stats = compute_stats(store, CATALOG, clock)
    assert stats.streak_days == 0 and stats.total_attempts == 0
    assert all(d.attempts == 0 and d.trend == () for d in stats.drills)
    assert stats.forecast == (0,) * 14
    assert stats.generated_at == datetime(2026, 1, 5, 9, tzinfo=UTC)


def test_activity_counts_attempts_and_reviews_per_local_day_oldest_first(tmp_path) -> None:
    from datetime import timedelta

    from tokdrill.clock import FixedClock
    from tokdrill.practice.stats import daily_activity
    from tokdrill.progress.store import Store
    from tokdrill.scheduling.planner import Planner

    clock = FixedClock()
    with Store.open(tmp_path / "p.sqlite3", clock=clock) as store:
        planner = Planner(store, clock)
        planner.review_card("c1", 3, 5.0)
        clock.advance(days=2)
        planner.review_card("c1", 3, 5.0)
        planner.review_card("c2", 1, 5.0)
        cal = planner.calendar()
        today = cal.day_of(clock.now())
        activity = daily_activity(store, cal, today, days=4)
    assert [day for day, _ in activity] == [today - timedelta(days=n) for n in (3, 2, 1, 0)]
    assert [n for _, n in activity] == [0, 1, 0, 2]
