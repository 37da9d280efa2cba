"""The scheduling API the UI and the CLI call: record reviews and attempts (and undo the last
review), preview a card's intervals, build the due queue, forecast, streak and readiness.
Every time comes from the injected clock.

The queue here is the scheduler's alone (due reviews oldest first, then today's new items);
:mod:`tokdrill.practice.due` puts the mistake log's pulls and weak spots in front of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, timedelta

from fsrs import Rating
from msgspec import Struct

from tokdrill.clock import Clock
from tokdrill.progress import settings as keys
from tokdrill.progress.records import Attempt, ConceptResult, ItemState, Kind, LatestAttempt, Review, to_iso
from tokdrill.progress.settings import SettingValue
from tokdrill.progress.store import Store, Writer
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import Calendar, calendar_for
from tokdrill.scheduling.fsrs_bridge import (
    card_scheduler,
    drill_scheduler,
    from_fsrs,
    new_card,
    retrievability,
    to_fsrs,
)
from tokdrill.scheduling.ratings import drill_rating
from tokdrill.scheduling.readiness import Readiness, compute_readiness, effective_due, new_item_limit

FORECAST_DAYS = 14


class ReviewOutcome(Struct, frozen=True):
    """What recording a card review produced."""

    review_id: int
    state: ItemState


class AttemptOutcome(Struct, frozen=True):
    """What recording a drill attempt produced: its id, the rating derived from it and the
    drill's new scheduler state."""

    attempt_id: int
    rating: Rating
    state: ItemState
    next_due: datetime
    """When the drill is next due, the interview's final-window rule applied."""


class AttemptPreview(Struct, frozen=True):
    """What recording an attempt would produce, worked out without writing: the rating, the
    drill's next scheduler state and its next due time (final window applied)."""

    rating: Rating
    state: ItemState
    next_due: datetime


class DueItem(Struct, frozen=True):
    """One queue entry; ``due`` is None for a new (never reviewed) item. ``pulled_by`` is the
    failed test that made a card due (the mistake log's pull rule); ``weak`` marks an item
    whose concepts were failed recently and not fixed."""

    kind: Kind
    item_id: str
    due: datetime | None
    recall_now: float
    pulled_by: ConceptResult | None = None
    weak: bool = False

    @property
    def is_new(self) -> bool:
        """True for an item never reviewed."""
        return self.due is None


class DueQueue(Struct, frozen=True):
    """What to practise now: due reviews (oldest due first), then today's new items; with the
    mistake log applied (:mod:`tokdrill.practice.due`), cards pulled by failed tests and weak
    items come first."""

    cards: tuple[DueItem, ...]
    drills: tuple[DueItem, ...]
    new_cards_limit: int
    new_cards_left: int
    new_drills_limit: int
    new_drills_left: int


class Planner:
    """Scheduling over one Store. Thread-safe as far as the Store is (it keeps no state but
    the schedulers)."""

    def __init__(
        self, store: Store, clock: Clock | None = None, settings: Callable[[str], SettingValue] | None = None
    ) -> None:
        """``settings`` reads a setting by key (default: the store's); the app passes one that
        also sees changes still waiting to be written."""
        self.store = store
        self.clock = clock or store.clock
        self._setting = settings or store.get_setting
        retention = self._setting(keys.DESIRED_RETENTION)
        retention = float(retention) if isinstance(retention, (int, float)) else 0.9
        self.cards = card_scheduler(retention)
        self.drills = drill_scheduler(retention)

    def interview_date(self) -> date | None:
        """The interview day, if set."""
        value = self._setting(keys.INTERVIEW_DATE)
        return date.fromisoformat(value) if isinstance(value, str) else None

    def _limit(self, key: str) -> int:
        value = self._setting(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def calendar(self) -> Calendar:
        """The user's calendar (the ``timezone`` setting, else the machine's zone)."""
        zone = self._setting(keys.TIMEZONE)
        return calendar_for(zone if isinstance(zone, str) else None, self.clock)

    def next_due(self, state: ItemState) -> datetime:
        """When an item is next due: its scheduler's due time, brought forward into the final
        window before the interview when one is set (the same rule the queue and stats use)."""
        return effective_due(state, self.interview_date(), self.calendar())

    # -- recording -----------------------------------------------------------------------

    def _next_state(
        self, kind: Kind, item_id: str, before: ItemState | None, rating: Rating, at: datetime, millis: int | None
    ) -> ItemState:
        scheduler = self.cards if kind == "card" else self.drills
        card = new_card(item_id, at) if before is None else to_fsrs(before.state)
        card, _log = scheduler.review_card(card, rating, review_datetime=at, review_duration=millis)
        return ItemState(
            kind=kind,
            item_id=item_id,
            state=from_fsrs(card),
            due=card.due,
            last_review=card.last_review,
            first_seen=at if before is None else before.first_seen,
            reps=1 if before is None else before.reps + 1,
        )

    def review_card(
        self, card_id: str, rating: Rating | int, answer_seconds: float, at: datetime | None = None
    ) -> ReviewOutcome:
        """Record a flashcard review made ``at`` (default now); the card's state is read and
        updated in the same write transaction, so concurrent reviews never lose one another."""
        rating = Rating(int(rating))
        at = self.clock.now() if at is None else at
        with self.store.write() as w:
            before = w.item_state("card", card_id)
            after = self._next_state("card", card_id, before, rating, at, round(answer_seconds * 1000))
            review = Review(
                card_id, int(rating), float(answer_seconds), at, after.state, None if before is None else before.state
            )
            review_id = w.insert_review(review)
            w.put_item_state(after)
        return ReviewOutcome(review_id, after)

    def record_attempt(self, attempt: Attempt) -> AttemptOutcome:
        """Record a finished drill attempt, rate it (``drill_rating``) and reschedule the drill,
        all in one transaction; a passed attempt also clears the draft."""
        rating = drill_rating(attempt.passed, attempt.active_seconds, attempt.target_seconds)
        with self.store.write() as w:
            before = w.item_state("drill", attempt.drill_id)
            after = self._next_state("drill", attempt.drill_id, before, rating, attempt.ended_at, None)
            attempt_id = w.insert_attempt(attempt)
            w.put_item_state(after)
            if attempt.passed:
                w.clear_draft(attempt.drill_id, attempt.mode)
        return AttemptOutcome(attempt_id, rating, after, self.next_due(after))

    def preview_attempt(self, attempt: Attempt) -> AttemptPreview:
        """The rating, next state and next due an attempt would get from the stored state now
        (nothing is written; the results screen shows this while the write is queued)."""
        rating = drill_rating(attempt.passed, attempt.active_seconds, attempt.target_seconds)
        before = self.store.item_state("drill", attempt.drill_id)
        after = self._next_state("drill", attempt.drill_id, before, rating, attempt.ended_at, None)
        return AttemptPreview(rating, after, self.next_due(after))

    def preview_intervals(self, card_id: str) -> dict[int, timedelta]:
        """For each rating (1 Again .. 4 Easy), how long until the card would be due again if
        rated so now. Nothing is stored."""
        now = self.clock.now()
        before = self.store.item_state("card", card_id)
        out: dict[int, timedelta] = {}
        for rating in Rating:
            after = self._next_state("card", card_id, before, rating, now, None)
            out[int(rating)] = max(timedelta(0), after.due - now)
        return out

    def undo_last_review(self, since: datetime | None = None) -> str | None:
        """Delete the review recorded last (of any card) and put that card's scheduler state
        back as it was before it; returns the card id, or None when there is nothing to undo (no
        review, or it was made before ``since``). One write transaction."""
        with self.store.write() as w:
            review = w.newest_review()
            if review is None or (since is not None and review.reviewed_at < since):
                return None
            self._undo(w, review)
        return review.card_id

    def undo_review(self, card_id: str, at: datetime) -> bool:
        """Delete the review of ``card_id`` made ``at`` and put the card's state back as it was
        before it; False (nothing changed) when that review is not stored or is not the card's
        last (its state has moved on since). One write transaction, safe to repeat."""
        with self.store.write() as w:
            review = w.review_made(card_id, at)
            newest = w.newest_review(card_id)
            if review is None or newest is None or newest.id != review.id:
                return False
            self._undo(w, review)
        return True

    @staticmethod
    def _undo(w: Writer, review: Review) -> None:
        """Delete ``review``, the card's last, and restore the card's state before it."""
        assert review.id is not None
        current = w.item_state("card", review.card_id)
        w.delete_review(review.id)
        if review.state_before is None or current is None or current.reps <= 1:
            w.delete_item_state("card", review.card_id)
            return
        card = to_fsrs(review.state_before)
        w.put_item_state(
            ItemState(
                kind="card",
                item_id=review.card_id,
                state=review.state_before,
                due=card.due,
                last_review=card.last_review,
                first_seen=current.first_seen,
                reps=current.reps - 1,
            )
        )

    # -- queue ---------------------------------------------------------------------------

    def _queue(
        self,
        kind: Kind,
        ids: Iterable[str],
        states: Mapping[str, ItemState],
        limit_setting: int,
        interview: date | None,
        cal: Calendar,
        now: datetime,
        extra_new: int = 0,
    ) -> tuple[tuple[DueItem, ...], int, int]:
        scheduler = self.cards if kind == "card" else self.drills
        today_start = cal.start_of(cal.day_of(now))
        ids = list(ids)
        due, new = [], []
        introduced_today = 0
        for item_id in ids:
            state = states.get(item_id)
            if state is None:
                new.append(item_id)
                continue
            if state.first_seen >= today_start:
                introduced_today += 1
            when = effective_due(state, interview, cal)
            if when <= now:
                due.append(DueItem(kind, item_id, when, retrievability(scheduler, state.state, now)))
        limit = new_item_limit(limit_setting, len(new) + introduced_today, cal.day_of(now), interview) + extra_new
        left = max(0, limit - introduced_today)
        due.sort(key=lambda d: (d.due, d.item_id))
        queue = tuple(due) + tuple(DueItem(kind, i, None, 0.0) for i in new[:left])
        return queue, limit, left

    def scheduled_queue(self, catalog: Catalog, extra_new: int = 0) -> DueQueue:
        """Cards and drills the scheduler has due now, then today's new ones (items of retired
        content are never queued); :func:`tokdrill.practice.due.due_queue` adds the mistakes.

        ``extra_new`` raises today's new-card limit by that many ("study more" once the day's
        new cards are done); the caller keeps the running total for the day."""
        now, cal, interview = self.clock.now(), self.calendar(), self.interview_date()
        card_states = self.store.item_states("card")
        cards, card_limit, card_left = self._queue(
            "card",
            catalog.card_ids,
            card_states,
            self._limit(keys.NEW_CARDS_PER_DAY),
            interview,
            cal,
            now,
            max(0, extra_new),
        )
        drills, drill_limit, drill_left = self._queue(
            "drill",
            catalog.drill_ids,
            self.store.item_states("drill"),
            self._limit(keys.NEW_DRILLS_PER_DAY),
            interview,
            cal,
            now,
        )
        return DueQueue(cards, drills, card_limit, card_left, drill_limit, drill_left)

    # -- forecast, streak, readiness -----------------------------------------------------

    def due_days(
        self, states: Mapping[str, ItemState], ids: Iterable[str], days: int = FORECAST_DAYS
    ) -> tuple[int, ...]:
        """How many of ``ids`` (reviewed before) fall due on each of the next ``days`` local
        days; overdue items count on day 0 (today)."""
        now, cal, interview = self.clock.now(), self.calendar(), self.interview_date()
        today = cal.day_of(now)
        counts = [0] * days
        for item_id in ids:
            state = states.get(item_id)
            if state is None:
                continue
            offset = (cal.day_of(effective_due(state, interview, cal)) - today).days
            if offset < days:
                counts[max(0, offset)] += 1
        return tuple(counts)

    def streak(self) -> int:
        """Consecutive local days with at least one attempt or review, ending today (or
        yesterday, when nothing has been done yet today). Walks back one local day at a time
        (two indexed look-ups a day), so days of 23 or 25 hours count as one day each."""
        cal = self.calendar()
        day = cal.day_of(self.clock.now())
        sql = (
            "SELECT EXISTS (SELECT 1 FROM attempts WHERE ended_at >= :lo AND ended_at < :hi) "
            "OR EXISTS (SELECT 1 FROM reviews WHERE reviewed_at >= :lo AND reviewed_at < :hi)"
        )
        count = 0
        with self.store.read() as conn:

            def active(d: date) -> bool:
                bounds = {"lo": to_iso(cal.start_of(d)), "hi": to_iso(cal.end_of(d))}
                return bool(conn.execute(sql, bounds).fetchone()[0])

            if not active(day):
                day -= timedelta(days=1)
            while day.year > 1970 and active(day):
                count += 1
                day -= timedelta(days=1)
        return count

    def readiness(
        self,
        catalog: Catalog,
        latest: Mapping[str, LatestAttempt] | None = None,
        card_states: Mapping[str, ItemState] | None = None,
        drill_states: Mapping[str, ItemState] | None = None,
    ) -> Readiness | None:
        """Readiness by the interview date, or None when no date is set or the interview day
        has passed (``latest`` and the states are read from the store unless given)."""
        interview = self.interview_date()
        cal = self.calendar()
        if interview is None or cal.day_of(self.clock.now()) > interview:
            return None
        if latest is None:
            latest = self.store.latest_attempts(catalog.drill_ids)
        return compute_readiness(
            catalog,
            self.store.item_states("card") if card_states is None else card_states,
            self.store.item_states("drill") if drill_states is None else drill_states,
            latest,
            interview,
            cal.day_of(self.clock.now()),
            cal,
            self.cards,
            self.drills,
        )
