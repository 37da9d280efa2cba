"""Plain records kept in the progress store, and the timestamp format they are stored in.

Every timestamp is a timezone-aware UTC ``datetime``; in SQLite it is ISO-8601 text with
microseconds and a ``+00:00`` suffix, so text order is time order and values round-trip exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

Mode = Literal["retype", "recall"]
MODES: tuple[Mode, ...] = ("retype", "recall")
Kind = Literal["card", "drill"]
KINDS: tuple[Kind, ...] = ("card", "drill")
Origin = Literal["app", "check", "mock"]
ORIGINS: tuple[Origin, ...] = ("app", "check", "mock")
"""Where an attempt was made: the app's drill screen, ``tokdrill check``, or a mock interview."""
COSTLY_KEYS_MAX = 10
"""At most this many (text, count) pairs of the most costly keys are kept per attempt."""


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


class GradedTest(Protocol):
    """What the store needs of a grader's per-test result (``tokdrill.grading.verdict.TestResult``)."""

    @property
    def name(self) -> str: ...

    @property
    def outcome(self) -> str: ...

    @property
    def message(self) -> str: ...


@dataclass(frozen=True)
class TestOutcome:
    """One hidden test's outcome as kept with an attempt: pytest node name, outcome (one of
    ``tokdrill.grading.verdict.OUTCOMES``), message, and the concepts the test checks."""

    __test__ = False  # not a pytest test class

    name: str
    outcome: str
    message: str = ""
    concepts: tuple[str, ...] = ()

    @classmethod
    def from_result(cls, result: GradedTest) -> TestOutcome:
        """The stored form of a grader's test result (its ``concepts`` kept when it has them)."""
        concepts: tuple[str, ...] = tuple(getattr(result, "concepts", ()) or ())
        return cls(result.name, result.outcome, result.message, concepts)

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in the database and written to exports."""
        return {"name": self.name, "outcome": self.outcome, "message": self.message, "concepts": list(self.concepts)}


@dataclass(frozen=True)
class Attempt:
    """One finished drill attempt (a session that ended with a pass or was given up).

    ``active_seconds`` excludes pauses; ``tests`` are the outcomes of the final submission.
    Typing measurements are None when not measured: ``keystrokes``; ``retype_accuracy`` (0..1,
    share of the reference typed right); ``wpm`` (characters / 5 per active minute);
    ``typing_accuracy`` (0..1, correct keystrokes over all, corrected errors counting as
    errors); ``corrected_errors`` (keystrokes typed wrong and then fixed); ``costly_keys``
    (the most mistyped texts with their counts, at most ``COSTLY_KEYS_MAX``). ``origin`` says
    where the attempt was made. ``id`` is None until the store assigns one.
    """

    drill_id: str
    mode: Mode
    started_at: datetime
    ended_at: datetime
    active_seconds: float
    target_seconds: int
    passed: bool
    submissions: int
    tests: tuple[TestOutcome, ...] = ()
    keystrokes: int | None = None
    retype_accuracy: float | None = None
    wpm: float | None = None
    typing_accuracy: float | None = None
    corrected_errors: int | None = None
    costly_keys: tuple[tuple[str, int], ...] | None = None
    origin: Origin = "app"
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
class LatestAttempt:
    """A drill's newest attempt, whatever its verdict."""

    active_seconds: float
    passed: bool
    target_seconds: int


@dataclass(frozen=True)
class RetiredItems:
    """Ids with stored history whose content no longer exists (kept, shown as retired)."""

    drills: tuple[str, ...] = field(default_factory=tuple)
    cards: tuple[str, ...] = field(default_factory=tuple)
