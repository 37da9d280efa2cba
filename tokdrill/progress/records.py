"""Plain records kept in the progress store, and the timestamp format they are stored in.

Every timestamp is a timezone-aware UTC ``datetime``; in SQLite it is ISO-8601 text with
microseconds and a ``+00:00`` suffix, so text order is time order and values round-trip exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # imported where used: reading stats does not need the grading package
    from tokdrill.grading.verdict import TestResult

Mode = Literal["retype", "recall"]
MODES: tuple[Mode, ...] = ("retype", "recall")
Kind = Literal["card", "drill"]
KINDS: tuple[Kind, ...] = ("card", "drill")


def to_iso(moment: datetime) -> str:
    """Stored text form of an aware datetime (UTC, microseconds always present)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: tokdrill stores aware UTC times only")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_iso(text: str) -> datetime:
    """Parse stored text back into an aware UTC datetime."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no timezone")
    return moment.astimezone(UTC)


def outcomes_to_json(tests: tuple[TestResult, ...]) -> str:
    """JSON text of per-test outcomes (list of {name, outcome, message})."""
    return json.dumps([t.to_json() for t in tests], ensure_ascii=False)


def outcomes_from_json(text: str) -> tuple[TestResult, ...]:
    """Per-test outcomes from their stored JSON text."""
    from tokdrill.grading.verdict import TestResult

    return tuple(TestResult(d["name"], d["outcome"], d.get("message", "")) for d in json.loads(text))


@dataclass(frozen=True)
class Attempt:
    """One finished drill attempt (a session that ended with a pass or was given up).

    ``active_seconds`` excludes pauses; ``tests`` are the outcomes of the final submission;
    ``keystrokes`` and ``retype_accuracy`` (0..1) are None when not measured.
    ``id`` is None until the store assigns one.
    """

    drill_id: str
    mode: Mode
    started_at: datetime
    ended_at: datetime
    active_seconds: float
    target_seconds: int
    passed: bool
    submissions: int
    tests: tuple[TestResult, ...] = ()
    keystrokes: int | None = None
    retype_accuracy: float | None = None
    id: int | None = None


@dataclass(frozen=True)
class Review:
    """One flashcard review: the rating given (1 Again .. 4 Easy), how long the answer took,
    and the scheduler state (fsrs card dict) before (None for a new card) and after."""

    card_id: str
    rating: int
    answer_seconds: float
    reviewed_at: datetime
    state_after: dict[str, Any]
    state_before: dict[str, Any] | None = None
    id: int | None = None


@dataclass(frozen=True)
class Draft:
    """The editor text of an unfinished drill, per drill and mode, with its active time so far."""

    drill_id: str
    mode: Mode
    text: str
    elapsed_seconds: float
    saved_at: datetime


@dataclass(frozen=True)
class ItemState:
    """Scheduler state of one card or drill: the fsrs card dict, its due time, last review,
    first review (when the item stopped being new) and number of reviews applied."""

    kind: Kind
    item_id: str
    state: dict[str, Any]
    due: datetime
    last_review: datetime | None
    first_seen: datetime
    reps: int


@dataclass(frozen=True)
class RetiredItems:
    """Ids with stored history whose content no longer exists (kept, shown as retired)."""

    drills: tuple[str, ...] = field(default_factory=tuple)
    cards: tuple[str, ...] = field(default_factory=tuple)
