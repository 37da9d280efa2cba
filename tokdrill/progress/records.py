"""Plain records kept in the progress store, and the timestamp format they are stored in.

Every timestamp is a timezone-aware UTC ``datetime``; in SQLite it is ISO-8601 text with
microseconds and a ``+00:00`` suffix, so text order is time order and values round-trip exactly.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from msgspec import Struct

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


class TestOutcome(Struct, frozen=True):
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


class Attempt(Struct, frozen=True):
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


class Review(Struct, frozen=True):
    """One flashcard review: the rating given (1 Again .. 4 Easy), how long the answer took,
    and the scheduler state (fsrs card dict) before (None for a new card) and after."""

    card_id: str
    rating: int
    answer_seconds: float
    reviewed_at: datetime
    state_after: dict[str, Any]
    state_before: dict[str, Any] | None = None
    id: int | None = None


class Draft(Struct, frozen=True):
    """The editor text of an unfinished drill, per drill and mode, with its active time so far
    (at the moment the drill was left), its edits so far (``keystrokes``) and, in retype mode,
    the typing counted so far: the keys typed, the wrong ones among them (fixed or not) and the
    reference tokens they hit, so a restored draft goes on with the same accuracy and
    corrections; and the session it belongs to
    (when it started, how many submissions failed so far), so a restored draft goes on with the
    same attempt and a discarded one that was submitted is recorded as not passed."""

    drill_id: str
    mode: Mode
    text: str
    elapsed_seconds: float
    saved_at: datetime
    keystrokes: int | None = None
    typing_keystrokes: int | None = None
    typing_errors: int | None = None
    costly_keys: tuple[tuple[str, int], ...] | None = None
    started_at: datetime | None = None
    submissions: int | None = None


class ItemState(Struct, frozen=True):
    """Scheduler state of one card or drill: the fsrs card dict, its due time, last review,
    first review (when the item stopped being new) and number of reviews applied."""

    kind: Kind
    item_id: str
    state: dict[str, Any]
    due: datetime
    last_review: datetime | None
    first_seen: datetime
    reps: int


class LatestAttempt(Struct, frozen=True):
    """A drill's newest attempt, whatever its verdict."""

    active_seconds: float
    passed: bool
    target_seconds: int


class RetiredItems(Struct, frozen=True):
    """Ids with stored history whose content no longer exists (kept, shown as retired)."""

    drills: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


class ConceptResult(Struct, frozen=True):
    """How one graded submission did on one concept: the drill, where it was graded, when, the
    concept, and the names of the submission's tests of that concept that did not pass (empty
    when every one passed). Every graded submission leaves one per concept its tests check."""

    drill_id: str
    origin: Origin
    at: datetime
    concept: str
    failed_tests: tuple[str, ...] = ()
    id: int | None = None

    @property
    def failed(self) -> bool:
        """True when a test of the concept did not pass."""
        return bool(self.failed_tests)


def concept_results(
    drill_id: str, origin: Origin, at: datetime, tests: tuple[TestOutcome, ...]
) -> tuple[ConceptResult, ...]:
    """One result per concept that ``tests`` (a submission's outcomes) check, in first-seen order."""
    failed: dict[str, list[str]] = {}
    for test in tests:
        for concept in test.concepts:
            names = failed.setdefault(concept, [])
            if test.outcome != "passed":
                names.append(test.name)
    return tuple(ConceptResult(drill_id, origin, at, c, tuple(names)) for c, names in failed.items())


class MockAnswer(Struct, frozen=True):
    """One typed answer of a mock round: the card, whether it answered the card's question or
    its follow-up (``follow_up`` is the follow-up's index, None for the main question), the
    text typed, and the key points it covered out of those checked (0 of 0 for a follow-up,
    which has no key points: its model answer is shown instead)."""

    card_id: str
    follow_up: int | None
    answer: str
    covered: int
    total: int


class MockRound(Struct, frozen=True):
    """One mock interview round: when, the clock it ran under, the drill written from memory
    with its verdict and time (``drill_seconds`` None when the drill was never submitted), the
    typed answers, and the concepts missed (failed in the drill or not covered in an answer)."""

    started_at: datetime
    ended_at: datetime
    clock_seconds: int
    drill_id: str
    drill_target_seconds: int
    drill_passed: bool
    drill_seconds: float | None
    answers: tuple[MockAnswer, ...]
    concepts_missed: tuple[str, ...]
    id: int | None = None


class Start(Struct, frozen=True):
    """A drill started in the user's own editor (``tokdrill start``): the file written, when,
    how many recorded checks have graded it since and when the last one was, the hash of the
    source last graded (the same source is not logged twice), and when it first passed (its
    attempt is then recorded; later checks are practice runs until the next start)."""

    drill_id: str
    mode: Mode
    path: str
    started_at: datetime
    checks: int = 0
    checked_at: datetime | None = None
    source_hash: str | None = None
    passed_at: datetime | None = None

    @property
    def open(self) -> bool:
        """True while the start's attempt is still running (no pass yet)."""
        return self.passed_at is None
