"""The planner calls the review and results screens make: interval previews, undo of the last
rating, "study more", and a next-due date that respects the interview's final window."""

from __future__ import annotations

from datetime import date, timedelta

from fsrs import Rating

from tokdrill.clock import FixedClock
from tokdrill.progress.records import Attempt
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner
from tokdrill.scheduling.readiness import window_start


def test_preview_intervals_grow_with_the_rating_and_match_what_a_review_gives(
    planner: Planner, store: Store, clock: FixedClock
) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    clock.advance(days=1)
    preview = planner.preview_intervals("b1")
    assert sorted(preview) == [1, 2, 3, 4]
    assert preview[1] < preview[2] < preview[3] < preview[4]
    assert store.count("reviews") == 1  # a preview stores nothing
    outcome = planner.review_card("b1", Rating.Good, 2.0)
    assert outcome.state.due - clock.now() == preview[3]


def test_preview_of_a_new_card_uses_the_learning_steps(planner: Planner) -> None:
    preview = planner.preview_intervals("never-seen")
    assert preview[1] == timedelta(minutes=1) and preview[3] == timedelta(minutes=10)


def test_undo_restores_the_card_as_it_was(planner: Planner, store: Store, clock: FixedClock) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    clock.advance(days=2)
    before = store.item_state("card", "b1")
    planner.review_card("b1", Rating.Again, 5.0)
    clock.advance(seconds=3)
    assert planner.undo_last_review() == "b1"
    assert store.item_state("card", "b1") == before
    assert store.count("reviews") == 1 and store.count("card_totals") == 1
    with store.read() as conn:
        assert conn.execute("SELECT reviews, good FROM card_totals").fetchone() == (1, 1)
    assert planner.undo_last_review() == "b1"  # the first review too: the card is new again
    assert store.item_state("card", "b1") is None and store.count("reviews") == 0
    assert planner.undo_last_review() is None


def test_undo_only_reaches_back_to_since(planner: Planner, clock: FixedClock) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    clock.advance(hours=1)
    session = clock.now()
    assert planner.undo_last_review(since=session) is None
    planner.review_card("b2", Rating.Hard, 2.0)
    assert planner.undo_last_review(since=session) == "b2"


def test_study_more_adds_new_cards_once_the_day_is_done(planner: Planner, store: Store, catalog: Catalog) -> None:
    store.set_new_cards_per_day(1)
    (first,) = planner.scheduled_queue(catalog).cards
    planner.review_card(first.item_id, Rating.Easy, 1.0)
    assert planner.scheduled_queue(catalog).cards == () or all(
        not c.is_new for c in planner.scheduled_queue(catalog).cards
    )
    more = planner.scheduled_queue(catalog, extra_new=2)
    assert [c.item_id for c in more.cards if c.is_new] == ["b2", "b3"]
    assert more.new_cards_limit == 3 and more.new_cards_left == 2


def test_next_due_of_an_attempt_falls_inside_the_final_window(
    planner: Planner, store: Store, clock: FixedClock
) -> None:
    interview = clock.now().date() + timedelta(days=6)
    store.set_interview_date(interview)
    end = clock.now()
    outcome = planner.record_attempt(
        Attempt("bpe-train", "recall", end - timedelta(seconds=100), end, 100, 600, True, 1)
    )
    assert outcome.state.due.date() > interview  # fsrs alone would schedule it after the interview
    assert outcome.next_due == window_start(interview, planner.calendar())
    assert outcome.next_due.date() < interview


def test_next_due_without_an_interview_is_the_scheduler_due(planner: Planner, store: Store, clock: FixedClock) -> None:
    end = clock.now()
    outcome = planner.record_attempt(
        Attempt("bpe-train", "recall", end - timedelta(seconds=700), end, 700, 600, True, 1)
    )
    assert store.interview_date() is None
    assert outcome.next_due == outcome.state.due


def test_interview_date_type(store: Store) -> None:
    store.set_interview_date(date(2026, 2, 1))
    assert store.interview_date() == date(2026, 2, 1)


def test_undo_takes_back_the_rating_recorded_last_even_when_the_clock_went_back(
    planner: Planner, store: Store, clock: FixedClock
) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    first = store.item_state("card", "b1")
    clock.current -= timedelta(hours=1)  # the computer's clock was set back between the two ratings
    planner.review_card("b1", Rating.Again, 2.0)
    assert planner.undo_last_review() == "b1"
    assert store.item_state("card", "b1") == first
    assert [r.rating for r in store.reviews()] == [int(Rating.Good)]


def test_undo_of_a_named_review_happens_once_and_only_while_it_is_the_cards_last(
    planner: Planner, store: Store, clock: FixedClock
) -> None:
    planner.review_card("b1", Rating.Good, 2.0)
    first_at = clock.now()
    clock.advance(days=1)
    planner.review_card("b1", Rating.Hard, 2.0)
    second_at = clock.now()
    assert not planner.undo_review("b1", first_at)  # the card's state has moved on since
    assert store.count("reviews") == 2
    assert planner.undo_review("b1", second_at)
    assert not planner.undo_review("b1", second_at)
    assert [r.reviewed_at for r in store.reviews()] == [first_at]
    assert store.item_state("card", "b1").reps == 1
