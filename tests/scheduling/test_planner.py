"""Due queue, daily new limits, the final-window rule, forecast and streak on a fixed clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from fsrs import Rating

from tokdrill.clock import FixedClock
from tokdrill.progress.records import Attempt
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner
from tokdrill.scheduling.readiness import FINAL_WINDOW_DAYS


def attempt(drill: str, clock: FixedClock, seconds: float, passed: bool, target: int = 600) -> Attempt:
    end = clock.now()
    return Attempt(drill, "recall", end - timedelta(seconds=seconds), end, seconds, target, passed, 1)


def ids(items) -> list[str]:
    return [i.item_id for i in items]


def test_new_cards_respect_the_daily_limit(planner: Planner, store: Store, clock: FixedClock, catalog: Catalog) -> None:
    store.set_new_cards_per_day(2)
    queue = planner.scheduled_queue(catalog)
    assert ids(queue.cards) == ["b1", "b2"] and all(c.is_new for c in queue.cards)
    planner.review_card("b1", Rating.Good, 4.0)
    planner.review_card("b2", Rating.Good, 4.0)
    queue = planner.scheduled_queue(catalog)
    assert queue.new_cards_left == 0 and ids(queue.cards) == []
    clock.advance(minutes=10)  # learning step: both come back the same day, still no new ones
    assert ids(planner.scheduled_queue(catalog).cards) == ["b1", "b2"]
    clock.advance(days=1)
    queue = planner.scheduled_queue(catalog)
    assert [c.item_id for c in queue.cards if c.is_new] == ["b3", "w1"]


def test_card_review_is_stored_with_states_before_and_after(planner: Planner, store: Store, clock: FixedClock) -> None:
    first = planner.review_card("b1", Rating.Again, 12.5)
    assert first.state.due == clock.now() + timedelta(minutes=1)
    clock.advance(minutes=1)
    second = planner.review_card("b1", Rating.Good, 3.0)
    newest, oldest = store.reviews("b1")
    assert oldest.state_before is None and oldest.state_after == first.state.state
    assert newest.state_before == first.state.state and newest.state_after == second.state.state
    assert newest.rating == 3 and newest.answer_seconds == 3.0
    assert store.item_state("card", "b1").reps == 2


def test_drill_attempt_is_rated_and_rescheduled_in_days(
    planner: Planner, store: Store, clock: FixedClock, catalog: Catalog
) -> None:
    failed = planner.record_attempt(attempt("bpe-train", clock, 700, False))
    assert failed.rating == Rating.Again
    assert failed.state.due >= clock.now() + timedelta(days=1)
    queue = planner.scheduled_queue(catalog)
    assert "bpe-train" not in ids(queue.drills)
    clock.advance(days=1)
    easy = planner.record_attempt(attempt("bpe-train", clock, 300, True))
    assert easy.rating == Rating.Easy and easy.state.reps == 2
    assert easy.state.due > failed.state.due


def test_new_drills_have_their_own_daily_limit(planner: Planner, store: Store, catalog: Catalog) -> None:
    store.set_new_drills_per_day(1)
    assert ids(planner.scheduled_queue(catalog).drills) == ["bpe-train"]


def test_final_window_makes_every_item_due_before_the_interview(
    planner: Planner, store: Store, clock: FixedClock, catalog: Catalog
) -> None:
    planner.review_card("b1", Rating.Easy, 2.0)
    for _ in range(2):  # review again whenever due, all Easy: the interval grows
        clock.current = store.item_state("card", "b1").due
        planner.review_card("b1", Rating.Easy, 2.0)
    state = store.item_state("card", "b1")
    interview = (clock.now() + timedelta(days=10)).date()
    assert state.due.date() > interview  # FSRS alone would skip the interview
    store.set_interview_date(interview)
    window = datetime.combine(interview - timedelta(days=FINAL_WINDOW_DAYS), datetime.min.time(), UTC)
    clock.current = window - timedelta(seconds=1)
    assert "b1" not in ids(planner.scheduled_queue(catalog).cards)
    clock.current = window
    due = [c for c in planner.scheduled_queue(catalog).cards if c.item_id == "b1"]
    assert due and due[0].due == window
    planner.review_card("b1", Rating.Good, 2.0)  # reviewed inside the window: no longer capped
    assert "b1" not in ids(planner.scheduled_queue(catalog).cards)


def test_new_limit_rises_so_every_card_is_introduced_by_the_eve(
    planner: Planner, store: Store, clock: FixedClock, catalog: Catalog
) -> None:
    store.set_new_cards_per_day(1)
    store.set_interview_date(date(2026, 1, 8))  # today is Jan 5: 3 days (5, 6, 7) for 6 cards
    queue = planner.scheduled_queue(catalog)
    assert queue.new_cards_limit == 2 and ids(queue.cards) == ["b1", "b2"]
    planner.review_card("b1", Rating.Good, 1.0)
    queue = planner.scheduled_queue(catalog)
    assert queue.new_cards_limit == 2 and queue.new_cards_left == 1  # stable through the day


def test_due_days_counts_due_items_per_day(planner: Planner, store: Store, clock: FixedClock, catalog: Catalog) -> None:
    planner.review_card("b1", Rating.Again, 1.0)  # due in a minute: today
    planner.record_attempt(attempt("bpe-train", clock, 100, True))  # Easy: some days out
    drill_due = store.item_state("drill", "bpe-train").due
    expected = [0] * 14
    expected[0] += 1
    offset = (drill_due.date() - clock.now().date()).days
    if offset < 14:
        expected[offset] += 1
    cards = planner.due_days(store.item_states("card"), catalog.card_ids)
    drills = planner.due_days(store.item_states("drill"), catalog.drill_ids)
    assert [a + b for a, b in zip(cards, drills)] == expected
    assert planner.due_days(store.item_states("card"), ["b1", "b2"], 3) == (1, 0, 0)


def test_streak_counts_consecutive_active_days(planner: Planner, store: Store, clock: FixedClock) -> None:
    assert planner.streak() == 0
    for day in (1, 3, 4):  # Jan 1, then Jan 3 and Jan 4 (a review), nothing on Jan 2
        clock.current = datetime(2026, 1, day, 23, 30, tzinfo=UTC)
        if day == 4:
            planner.review_card("b1", Rating.Good, 1.0)
        else:
            planner.record_attempt(attempt("bpe-train", clock, 100, True))
    clock.current = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
    assert planner.streak() == 2  # nothing today yet: the streak so far still counts
    planner.review_card("b2", Rating.Good, 1.0)
    assert planner.streak() == 3
    clock.current = datetime(2026, 1, 7, 8, 0, tzinfo=UTC)
    assert planner.streak() == 0


def test_streak_follows_the_users_time_zone(planner: Planner, store: Store, clock: FixedClock) -> None:
    for day in (3, 4):  # 23:30 UTC is already the next day in Berlin (UTC+1 in winter)
        clock.current = datetime(2026, 1, day, 23, 30, tzinfo=UTC)
        planner.review_card("b1", Rating.Good, 1.0)
    clock.current = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    assert planner.streak() == 2
    store.set_timezone("Europe/Berlin")  # activity on local Jan 4 and Jan 5
    assert planner.streak() == 2
    clock.current = datetime(2026, 1, 6, 12, 0, tzinfo=UTC)
    assert planner.streak() == 2
    store.set_timezone("UTC")
    assert planner.streak() == 0


def test_catalog_introduces_easy_drills_first() -> None:
    from types import SimpleNamespace

    from tokdrill.scheduling.catalog import catalog_from_library

    def drill(id_: str, difficulty: str, target: int) -> SimpleNamespace:
        return SimpleNamespace(id=id_, title=id_, difficulty=difficulty, target_seconds=target)

    library = SimpleNamespace(
        drills={
            d.id: d
            for d in [
                drill("full", "hard", 1800),
                drill("train", "medium", 900),
                drill("b2u", "easy", 480),
                drill("encode", "medium", 600),
            ]
        },
        decks={},
    )
    assert list(catalog_from_library(library).drill_ids) == ["b2u", "encode", "train", "full"]
