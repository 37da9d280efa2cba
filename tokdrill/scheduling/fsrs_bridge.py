"""The thin layer over the ``fsrs`` package: schedulers, and fsrs cards <-> stored dicts."""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

from fsrs import Card, Scheduler


def card_scheduler(desired_retention: float = 0.9) -> Scheduler:
    """Scheduler for flashcards: FSRS defaults (1 and 10 minute learning steps), no fuzz
    (deterministic due dates)."""
    return Scheduler(desired_retention=desired_retention, enable_fuzzing=False)


def drill_scheduler(desired_retention: float = 0.9) -> Scheduler:
    """Scheduler for drills: no same-day learning steps (a drill comes back after >= 1 day),
    no fuzz."""
    return Scheduler(desired_retention=desired_retention, learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def numeric_id(item_id: str) -> int:
    """A stable integer for fsrs's ``card_id`` field (fsrs wants an int; tokdrill ids are text)."""
    return zlib.crc32(item_id.encode("utf-8"))


def new_card(item_id: str, now: datetime) -> Card:
    """A never-reviewed fsrs card for ``item_id``, due ``now``."""
    return Card(card_id=numeric_id(item_id), due=now)


def to_fsrs(state: dict[str, Any]) -> Card:
    """The fsrs Card of a stored state dict."""
    return Card.from_dict(state)  # type: ignore[arg-type]


def from_fsrs(card: Card) -> dict[str, Any]:
    """The storable dict of an fsrs Card."""
    return dict(card.to_dict())


def retrievability(scheduler: Scheduler, state: dict[str, Any] | None, at: datetime) -> float:
    """Predicted probability of recall at ``at`` (0 for an item never reviewed)."""
    if state is None:
        return 0.0
    return float(scheduler.get_card_retrievability(to_fsrs(state), at))
