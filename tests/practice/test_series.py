"""The charts' series on small histories worked out by hand, and the queries behind them: each
reads through an index, never the whole history."""

from __future__ import annotations

from datetime import date, timedelta

from factories import make_attempt
from fsrs import Rating

from tokdrill.clock import FixedClock
from tokdrill.practice.series import (
    chart_choices,
    chart_series,
    deck_days,
    drill_times,
    due_forecast,
    latest_deck,
    latest_drill,
    typing_speed,
)
from tokdrill.progress.records import Review
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import calendar_for
from tokdrill.scheduling.planner import Planner

CATALOG = Catalog(
    drill_targets={"bpe-train": 600, "wordpiece": 900},
    decks={"bpe": ("b1", "b2", "b3"), "wp": ("w1", "w2")},
    titles={"bpe-train": "BPE training", "bpe": "BPE deck"},
)


def test_drill_times_are_the_newest_attempts_oldest_first_with_their_verdicts(
    store: Store, planner: Planner, clock: FixedClock
) -> None:
    for seconds, passed in [(700, False), (500, True), (450, True), (800, False)]:
        clock.advance(days=1)
        planner.record_attempt(make_attempt("bpe-train", at=clock.now(), seconds=seconds, passed=passed))
    planner.record_attempt(make_attempt("wordpiece", at=clock.now(), seconds=100))
    series = drill_times(store, CATALOG, "bpe-train", limit=3)
    assert (series.title, series.target_seconds) == ("BPE training", 600)
    assert [(p.seconds, p.passed) for p in series.attempts] == [(500, True), (450, True), (800, False)]
    assert [p.ended_at for p in series.attempts] == sorted(p.ended_at for p in series.attempts)


def test_a_retired_drill_keeps_the_target_it_was_timed_against(store: Store) -> None:
    store.add_attempt(make_attempt("old-drill", seconds=50, target=120))
    series = drill_times(store, CATALOG, "old-drill")
    assert (series.title, series.target_seconds, len(series.attempts)) == ("old-drill", 120, 1)
    assert drill_times(store, CATALOG, "wordpiece").attempts == ()


def test_deck_days_count_reviews_and_good_ratings_per_local_day_of_that_deck_only(
    store: Store, planner: Planner, clock: FixedClock
) -> None:
    store.set_timezone("America/New_York")  # 09:00 UTC on Jan 5 is 04:00 local; 03:00 UTC is the day before
    calendar = calendar_for("America/New_York", clock)
    planner.review_card("b1", Rating.Good, 5.0)
    planner.review_card("b2", Rating.Again, 5.0)
    planner.review_card("w1", Rating.Good, 5.0)  # another deck
    planner.review_card("b3", Rating.Easy, 5.0, at=clock.now() - timedelta(hours=6))  # Jan 4, 22:00 local
    today = calendar.day_of(clock.now())
    series = deck_days(store, CATALOG, calendar, today, "bpe", days=3)
    assert series.days == (date(2026, 1, 3), date(2026, 1, 4), date(2026, 1, 5))
    assert (series.reviews, series.good) == ((0, 1, 2), (0, 1, 1))
    assert series.retention == (None, 1.0, 0.5)
    assert series.title == "BPE deck"


def test_the_forecast_counts_cards_and_drills_per_day_and_places_the_interview(
    store: Store, planner: Planner, clock: FixedClock
) -> None:
    planner.review_card("b1", Rating.Again, 5.0)  # due again today
    planner.record_attempt(make_attempt("bpe-train", at=clock.now(), seconds=300))
    store.set_interview_date(date(2026, 1, 15))
    forecast = due_forecast(store, planner, CATALOG, days=30)
    assert len(forecast.days) == len(forecast.cards) == len(forecast.drills) == 30
    assert forecast.days[0] == date(2026, 1, 5) and forecast.cards[0] == 1
    assert sum(forecast.drills) == 1 and sum(forecast.cards) == 1
    assert forecast.interview_offset == 10
    store.set_interview_date(date(2026, 1, 1))  # past: no marker
    assert due_forecast(store, planner, CATALOG).interview_offset is None


def test_typing_speed_is_the_newest_retype_attempts_that_measured_it(store: Store, clock: FixedClock) -> None:
    for wpm, mode in [(30.0, "retype"), (None, "retype"), (99.0, "recall"), (35.0, "retype"), (41.0, "retype")]:
        clock.advance(hours=1)
        store.add_attempt(make_attempt("bpe-train", at=clock.now(), mode=mode, wpm=wpm))
    assert [p.wpm for p in typing_speed(store, limit=2)] == [35.0, 41.0]
    assert [p.wpm for p in typing_speed(store)] == [30.0, 35.0, 41.0]


def test_the_charts_start_on_what_was_practised_last_and_step_through_what_has_history(
    store: Store, planner: Planner, clock: FixedClock
) -> None:
    assert (latest_drill(store, CATALOG), latest_deck(store, CATALOG)) == ("bpe-train", "bpe")
    assert chart_choices(store, CATALOG) == (("bpe-train", "wordpiece"), ("bpe", "wp"))  # no history: all
    planner.record_attempt(make_attempt("wordpiece", at=clock.now()))
    clock.advance(hours=1)
    planner.record_attempt(make_attempt("bpe-train", at=clock.now()))
    store.add_attempt(make_attempt("old-drill", at=clock.now() + timedelta(hours=1)))  # retired: skipped
    planner.review_card("w2", Rating.Good, 5.0)
    assert (latest_drill(store, CATALOG), latest_deck(store, CATALOG)) == ("bpe-train", "wp")
    assert chart_choices(store, CATALOG) == (("bpe-train", "wordpiece"), ("wp",))
    series = chart_series(store, CATALOG, planner)
    assert series.drill is not None and series.drill.drill_id == "bpe-train"
    assert series.deck is not None and series.deck.deck_id == "wp"
    chosen = chart_series(store, CATALOG, planner, "wordpiece", "bpe")
    assert (chosen.drill and chosen.drill.drill_id, chosen.deck and chosen.deck.deck_id) == ("wordpiece", "bpe")


def test_every_series_query_reads_through_an_index(store: Store, planner: Planner, clock: FixedClock) -> None:
    for day in range(5):
        store.add_attempt(make_attempt("bpe-train", at=clock.now() + timedelta(days=day), mode="retype", wpm=30.0))
    planner.review_card("b1", Rating.Good, 5.0)
    statements: list[str] = []
    with store.read() as conn:
        conn.set_trace_callback(statements.append)
        try:
            chart_series(store, CATALOG, planner)
            chart_choices(store, CATALOG)
        finally:
            conn.set_trace_callback(None)
        history = [s for s in dict.fromkeys(statements) if "FROM attempts" in s or "reviews r" in s]
        assert len(history) >= 4
        for statement in history:
            plan = " / ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + statement))
            assert "USING INDEX" in plan, (statement, plan)
            assert not _full_scan(plan), (statement, plan)


def _full_scan(plan: str) -> bool:
    """True when the plan reads a history table without an index."""
    return any(step.strip() in ("SCAN attempts", "SCAN reviews", "SCAN r") for step in plan.split(" / "))


def _steps(store: Store, planner: Planner) -> int:
    """SQLite virtual-machine steps (in thousands) that building every chart's series takes."""
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0

    with store.read() as conn:
        conn.set_progress_handler(tick, 1000)
        try:
            chart_series(store, CATALOG, planner, "bpe-train", "bpe")
            chart_choices(store, CATALOG)
        finally:
            conn.set_progress_handler(None, 0)
    return count


def test_building_the_series_costs_no_more_on_a_long_history(store: Store, planner: Planner, clock: FixedClock) -> None:
    for day in range(5):
        planner.record_attempt(make_attempt("bpe-train", at=clock.now(), mode="retype", wpm=30.0 + day))
        planner.review_card("b1", Rating.Good, 5.0)
        clock.advance(days=1)
    before = _steps(store, planner)
    state = {
        "card_id": 1,
        "state": 1,
        "step": 0,
        "stability": None,
        "difficulty": None,
        "due": "2025-01-01T00:00:00+00:00",
        "last_review": None,
    }
    with store.write() as w:  # 4,000 newer attempts that no chart shows, 2,000 reviews older than its window
        for i in range(2000):
            at = clock.now() + timedelta(minutes=i)
            w.insert_attempt(make_attempt("wordpiece", at=at, mode="recall"))
            w.insert_attempt(make_attempt("wordpiece", at=at, mode="retype"))  # no typing figures
            w.insert_review(Review("b2", 3, 4.0, clock.now() - timedelta(days=60, minutes=i), state))
    after = _steps(store, planner)
    assert after <= before + 2, (before, after)


def test_the_typing_index_exists_in_a_migrated_database(store: Store) -> None:
    with store.read() as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "attempts_typing" in names
