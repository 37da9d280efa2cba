"""Readiness for the interview, and the rule that gets every item reviewed before it.

**Final-window rule.** With an interview date set, the final window is the
``FINAL_WINDOW_DAYS`` local days before the interview day. Any item whose last review is
older than the window's start is due at the window's start at the latest (earlier if FSRS says
so), so every item is reviewed at least once in those days, whatever its interval. And the daily
new-item limit is raised so that every unseen item is introduced by the eve of the interview
(``new_item_limit``).

**Readiness.** Recall is FSRS retrievability at the start of the interview day (0 for an item
never reviewed). A card's score is its recall; a drill's score is its recall times a speed
factor, ``min(1, target / latest time)`` when the latest attempt passed and 0 when it failed.
A deck's figure is the mean recall of its cards; the overall figure is the mean of two halves,
the mean card recall and the mean drill score (just one of them when the other is empty).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, datetime, timedelta

from fsrs import Scheduler
from msgspec import Struct

from tokdrill.progress.records import ItemState, Kind, LatestAttempt
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import Calendar
from tokdrill.scheduling.fsrs_bridge import retrievability

READINESS_EXPLANATION = (
    "Readiness predicts how much you would get right on the interview morning: the recall FSRS "
    "expects then for each card, and for each drill that recall scaled by how your latest attempt "
    "compares with its target time (cards and drills count half each). It rises as you review "
    "what is due, bring in new cards and drills, and pass drills within their target time."
)
"""What the readiness percentage means and what raises it (the app and `tokdrill stats` show it)."""

FINAL_WINDOW_DAYS = 3
"""Every item must be reviewed within this many days before the interview day."""

WEAKEST_COUNT = 5


def window_start(interview: date, calendar: Calendar) -> datetime:
    """The UTC moment the final review window opens."""
    return calendar.start_of(interview - timedelta(days=FINAL_WINDOW_DAYS))


def effective_due(state: ItemState, interview: date | None, calendar: Calendar) -> datetime:
    """When an item is due once the final-window rule is applied."""
    if interview is None:
        return state.due
    opens = window_start(interview, calendar)
    if state.last_review is None or state.last_review < opens:
        return min(state.due, opens)
    return state.due


def new_item_limit(daily_limit: int, unseen_at_day_start: int, today: date, interview: date | None) -> int:
    """Today's new-item limit: the setting, raised so that all unseen items are introduced by
    the eve of the interview (days from today to the eve, inclusive)."""
    if interview is None or today >= interview:
        return daily_limit
    days_left = (interview - today).days
    return max(daily_limit, math.ceil(unseen_at_day_start / days_left))


class ItemReadiness(Struct, frozen=True):
    """One item's readiness: recall on the interview day, latest time vs target (drills) and
    the score used to rank the weakest items."""

    kind: Kind
    item_id: str
    recall: float
    score: float
    deck: str | None = None
    latest_seconds: float | None = None
    latest_passed: bool | None = None
    target_seconds: int | None = None


class Readiness(Struct, frozen=True):
    """Readiness by the interview date (see the module docstring for the formulas)."""

    interview_date: date
    days_left: int
    overall: float
    decks: Mapping[str, float]
    cards: tuple[ItemReadiness, ...]
    drills: tuple[ItemReadiness, ...]
    weakest: tuple[ItemReadiness, ...]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""

        def item(r: ItemReadiness) -> dict[str, object]:
            return {
                "kind": r.kind,
                "id": r.item_id,
                "deck": r.deck,
                "recall": round(r.recall, 4),
                "score": round(r.score, 4),
                "latest_seconds": r.latest_seconds,
                "latest_passed": r.latest_passed,
                "target_seconds": r.target_seconds,
            }

        return {
            "interview_date": self.interview_date.isoformat(),
            "days_left": self.days_left,
            "overall": round(self.overall, 4),
            "decks": {k: round(v, 4) for k, v in self.decks.items()},
            "drills": [item(r) for r in self.drills],
            "weakest": [item(r) for r in self.weakest],
        }


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def compute_readiness(
    catalog: Catalog,
    card_states: Mapping[str, ItemState],
    drill_states: Mapping[str, ItemState],
    latest: Mapping[str, LatestAttempt],
    interview: date,
    today: date,
    calendar: Calendar,
    card_scheduler: Scheduler,
    drill_scheduler: Scheduler,
    weakest_count: int = WEAKEST_COUNT,
) -> Readiness:
    """Readiness of the catalog's items on ``interview`` from their stored states and each
    drill's latest attempt."""
    at = calendar.start_of(interview)
    cards: list[ItemReadiness] = []
    decks: dict[str, float] = {}
    for deck, card_ids in catalog.decks.items():
        recalls = []
        for card_id in card_ids:
            state = card_states.get(card_id)
            r = retrievability(card_scheduler, None if state is None else state.state, at)
            recalls.append(r)
            cards.append(ItemReadiness("card", card_id, r, r, deck=deck))
        decks[deck] = _mean(recalls) or 0.0
    drills: list[ItemReadiness] = []
    for drill_id, target in catalog.drill_targets.items():
        state = drill_states.get(drill_id)
        r = retrievability(drill_scheduler, None if state is None else state.state, at)
        newest = latest.get(drill_id)
        seconds = None if newest is None else newest.active_seconds
        passed = None if newest is None else newest.passed
        speed = 0.0
        if seconds is not None and passed:
            speed = 1.0 if seconds <= 0 else min(1.0, target / seconds)
        drills.append(ItemReadiness("drill", drill_id, r, r * speed, None, seconds, passed, target))
    halves = [m for m in (_mean([c.score for c in cards]), _mean([d.score for d in drills])) if m is not None]
    overall = sum(halves) / len(halves) if halves else 0.0
    weakest = sorted(cards + drills, key=lambda r: (r.score, r.kind, r.item_id))[:weakest_count]
    return Readiness(
        interview_date=interview,
        days_left=(interview - today).days,
        overall=overall,
        decks=decks,
        cards=tuple(cards),
        drills=tuple(drills),
        weakest=tuple(weakest),
    )
