"""The one declared schema of stored progress: msgspec Structs for every record of the export
document, used both to read an import and to decode each database row the store reads.

msgspec is used (rather than pydantic) because it decodes JSON straight into typed records in
C, names the failing field as a path (``$.tests[2].outcome``), keeps ``import`` of the store
cheap for ``tokdrill stats``, and lets each record skip parsing the rest of a document
(``msgspec.Raw``), so every bad record of an import can be reported, not only the first.

Types, ranges and relations are checked here; an fsrs scheduler state is also rebuilt with the
fsrs library's own constructors (``fsrs.Card.from_dict``, ``fsrs.State``), so nothing accepted
can break a later review, forecast or readiness figure.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

from tokdrill.progress.records import (
    COSTLY_KEYS_MAX,
    Attempt,
    ConceptResult,
    Draft,
    ItemState,
    Kind,
    MockAnswer,
    MockRound,
    Mode,
    Origin,
    Review,
    Start,
    TestOutcome,
    to_iso,
)

FORMAT = "tokdrill-progress"
FORMAT_VERSION = 3
"""Version 2 adds typing measurements, origin and per-test concepts to attempts, and the
``timezone`` setting; version 3 adds concept results, mock rounds and drills started in the
user's own editor. Versions 1 and 2 are still read (the newer tables empty)."""
YEAR_RANGE = (1970, 9000)
MAX_ID_LENGTH = 200
MAX_SECONDS = 10.0**9
MAX_COUNT = 2**31
MAX_TEXT = 10_000_000

_CANONICAL_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00")
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})")
_CONCEPT = r"^[a-z0-9]+(-[a-z0-9]+)*$"

ItemId = Annotated[str, Meta(min_length=1, max_length=MAX_ID_LENGTH)]
Text = Annotated[str, Meta(max_length=MAX_TEXT)]
Seconds = Annotated[float, Meta(ge=0, le=MAX_SECONDS)]
Count = Annotated[int, Meta(ge=0, le=MAX_COUNT)]
PositiveCount = Annotated[int, Meta(ge=1, le=MAX_COUNT)]
RowId = Annotated[int, Meta(ge=1, le=2**62)]
Share = Annotated[float, Meta(ge=0, le=1)]
ConceptId = Annotated[str, Meta(pattern=_CONCEPT, max_length=MAX_ID_LENGTH)]
Outcome = Literal["passed", "failed", "error", "timeout"]
TimeText = Annotated[str, Meta(max_length=40)]
S = TypeVar("S", bound=Struct)


def check_time(text: str, field: str) -> datetime:
    """The moment of a stored timestamp, which must be canonical UTC text (``to_iso``) in a sane year."""
    if not _CANONICAL_TIME.fullmatch(text):
        raise ValueError(f"{field}: expected a UTC timestamp like 2026-01-05T09:00:00.000000+00:00, got {text!r}")
    return _parse_time(text, field)


def _parse_time(text: str, field: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{field}: not a valid date and time: {text!r}") from None
    if moment.tzinfo is None or not YEAR_RANGE[0] <= moment.year <= YEAR_RANGE[1]:
        raise ValueError(f"{field}: expected a time with a zone, years {YEAR_RANGE[0]}-{YEAR_RANGE[1]}, got {text!r}")
    return moment.astimezone(UTC)


class FsrsState(Struct, forbid_unknown_fields=True):
    """An fsrs card (``fsrs.Card.to_dict()``), checked so that the scheduler can use it."""

    card_id: Annotated[int, Meta(ge=-(2**62), le=2**62)]
    state: Literal[1, 2, 3]
    step: Annotated[int, Meta(ge=0, le=1000)] | None
    stability: Annotated[float, Meta(ge=0.001, le=1e6)] | None
    difficulty: Annotated[float, Meta(ge=1, le=10)] | None
    due: TimeText
    last_review: TimeText | None

    def __post_init__(self) -> None:
        from fsrs import Card, State

        if (self.stability is None) != (self.difficulty is None) or (self.stability is None) != (
            self.last_review is None
        ):
            raise ValueError("stability, difficulty and last_review must be all set or all null")
        state = State(self.state)
        if state in (State.Learning, State.Relearning) and self.step is None:
            raise ValueError(f"a card in state {state.name} needs a step")
        if state == State.Review and self.step is not None:
            raise ValueError("a card in state Review has no step")
        if state != State.Learning and self.stability is None:
            raise ValueError(f"a card in state {state.name} needs stability and difficulty")
        _parse_time(self.due, "due")
        if self.last_review is not None:
            _parse_time(self.last_review, "last_review")
        Card.from_dict(self.to_dict())  # type: ignore[arg-type]  # the library's own constructor

    def to_dict(self) -> dict[str, Any]:
        """The plain dict fsrs reads."""
        return msgspec.structs.asdict(self)

    def due_time(self) -> datetime:
        """``due`` as an aware UTC datetime."""
        return _parse_time(self.due, "due")

    def last_review_time(self) -> datetime | None:
        """``last_review`` as an aware UTC datetime, or None."""
        return None if self.last_review is None else _parse_time(self.last_review, "last_review")


class TestOutcomeRecord(Struct, forbid_unknown_fields=True):
    """One hidden test's outcome kept with an attempt."""

    __test__ = False  # not a pytest test class

    name: Annotated[str, Meta(max_length=10_000)]
    outcome: Outcome
    message: Text = ""
    concepts: Annotated[list[ConceptId], Meta(max_length=100)] = []

    def to_record(self) -> TestOutcome:
        return TestOutcome(self.name, self.outcome, self.message, tuple(self.concepts))


CostlyKey = tuple[Annotated[str, Meta(min_length=1, max_length=100)], PositiveCount]


class AttemptRecord(Struct, forbid_unknown_fields=True):
    """One finished drill attempt."""

    id: RowId
    drill_id: ItemId
    mode: Mode
    started_at: TimeText
    ended_at: TimeText
    active_seconds: Seconds
    target_seconds: PositiveCount
    passed: bool
    submissions: Count
    tests: Annotated[list[TestOutcomeRecord], Meta(max_length=10_000)]
    keystrokes: Count | None = None
    retype_accuracy: Share | None = None
    wpm: Annotated[float, Meta(ge=0, le=10_000)] | None = None
    typing_accuracy: Share | None = None
    corrected_errors: Count | None = None
    costly_keys: Annotated[list[CostlyKey], Meta(max_length=COSTLY_KEYS_MAX)] | None = None
    origin: Origin = "app"

    def __post_init__(self) -> None:
        check_time(self.started_at, "started_at")
        check_time(self.ended_at, "ended_at")

    def to_record(self) -> Attempt:
        return Attempt(
            drill_id=self.drill_id,
            mode=self.mode,
            started_at=check_time(self.started_at, "started_at"),
            ended_at=check_time(self.ended_at, "ended_at"),
            active_seconds=self.active_seconds,
            target_seconds=self.target_seconds,
            passed=self.passed,
            submissions=self.submissions,
            tests=tuple(t.to_record() for t in self.tests),
            keystrokes=self.keystrokes,
            retype_accuracy=self.retype_accuracy,
            wpm=self.wpm,
            typing_accuracy=self.typing_accuracy,
            corrected_errors=self.corrected_errors,
            costly_keys=None if self.costly_keys is None else tuple((t, n) for t, n in self.costly_keys),
            origin=self.origin,
            id=self.id,
        )

    @classmethod
    def of(cls, a: Attempt) -> AttemptRecord:
        """The validated record of an attempt about to be stored (``id`` 1 stands in for none)."""
        values = {
            "id": 1 if a.id is None else a.id,
            "drill_id": a.drill_id,
            "mode": a.mode,
            "started_at": to_iso(a.started_at),
            "ended_at": to_iso(a.ended_at),
            "active_seconds": a.active_seconds,
            "target_seconds": a.target_seconds,
            "passed": a.passed,
            "submissions": a.submissions,
            "tests": [t.to_json() for t in a.tests],
            "keystrokes": a.keystrokes,
            "retype_accuracy": a.retype_accuracy,
            "wpm": a.wpm,
            "typing_accuracy": a.typing_accuracy,
            "corrected_errors": a.corrected_errors,
            "costly_keys": None if a.costly_keys is None else [list(pair) for pair in a.costly_keys],
            "origin": a.origin,
        }
        return validated(cls, values, f"attempt of {a.drill_id!r}")


class ReviewRecord(Struct, forbid_unknown_fields=True):
    """One flashcard review with the scheduler state before and after it."""

    id: RowId
    card_id: ItemId
    rating: Literal[1, 2, 3, 4]
    answer_seconds: Seconds
    reviewed_at: TimeText
    state_before: FsrsState | None
    state_after: FsrsState

    def __post_init__(self) -> None:
        check_time(self.reviewed_at, "reviewed_at")

    @classmethod
    def of(cls, r: Review) -> ReviewRecord:
        """The validated record of a review about to be stored."""
        values = {
            "id": 1 if r.id is None else r.id,
            "card_id": r.card_id,
            "rating": r.rating,
            "answer_seconds": r.answer_seconds,
            "reviewed_at": to_iso(r.reviewed_at),
            "state_before": r.state_before,
            "state_after": r.state_after,
        }
        return validated(cls, values, f"review of {r.card_id!r}")

    def to_record(self) -> Review:
        return Review(
            card_id=self.card_id,
            rating=self.rating,
            answer_seconds=self.answer_seconds,
            reviewed_at=check_time(self.reviewed_at, "reviewed_at"),
            state_after=self.state_after.to_dict(),
            state_before=None if self.state_before is None else self.state_before.to_dict(),
            id=self.id,
        )


class ScheduleRecord(Struct, forbid_unknown_fields=True):
    """The scheduler state of one card or drill; ``due`` and ``last_review`` repeat the
    state's own (they are indexed columns), and must agree with it."""

    kind: Kind
    item_id: ItemId
    state: FsrsState
    due: TimeText
    last_review: TimeText | None
    first_seen: TimeText
    reps: Count

    def __post_init__(self) -> None:
        if check_time(self.due, "due") != self.state.due_time():
            raise ValueError(f"due {self.due!r} differs from the state's due {self.state.due!r}")
        last = None if self.last_review is None else check_time(self.last_review, "last_review")
        if last != self.state.last_review_time():
            raise ValueError(f"last_review {self.last_review!r} differs from the state's {self.state.last_review!r}")
        check_time(self.first_seen, "first_seen")

    @classmethod
    def of(cls, s: ItemState) -> ScheduleRecord:
        """The validated record of a scheduler state about to be stored."""
        values = {
            "kind": s.kind,
            "item_id": s.item_id,
            "state": s.state,
            "due": to_iso(s.due),
            "last_review": None if s.last_review is None else to_iso(s.last_review),
            "first_seen": to_iso(s.first_seen),
            "reps": s.reps,
        }
        return validated(cls, values, f"schedule of {s.kind} {s.item_id!r}")

    def to_record(self) -> ItemState:
        return ItemState(
            kind=self.kind,
            item_id=self.item_id,
            state=self.state.to_dict(),
            due=check_time(self.due, "due"),
            last_review=None if self.last_review is None else check_time(self.last_review, "last_review"),
            first_seen=check_time(self.first_seen, "first_seen"),
            reps=self.reps,
        )


class DraftRecord(Struct, forbid_unknown_fields=True):
    """The editor text of an unfinished drill."""

    drill_id: ItemId
    mode: Mode
    text: Text
    elapsed_seconds: Seconds
    saved_at: TimeText
    keystrokes: Count | None = None
    typing_keystrokes: Count | None = None
    typing_errors: Count | None = None
    costly_keys: Annotated[list[CostlyKey], Meta(max_length=COSTLY_KEYS_MAX)] | None = None
    started_at: TimeText | None = None
    submissions: Count | None = None

    def __post_init__(self) -> None:
        check_time(self.saved_at, "saved_at")
        if self.started_at is not None:
            check_time(self.started_at, "started_at")

    def to_record(self) -> Draft:
        return Draft(
            self.drill_id,
            self.mode,
            self.text,
            self.elapsed_seconds,
            check_time(self.saved_at, "saved_at"),
            self.keystrokes,
            self.typing_keystrokes,
            self.typing_errors,
            None if self.costly_keys is None else tuple((t, n) for t, n in self.costly_keys),
            None if self.started_at is None else check_time(self.started_at, "started_at"),
            self.submissions,
        )

    @classmethod
    def of(cls, d: Draft) -> DraftRecord:
        """The validated record of a draft about to be stored."""
        values = {
            "drill_id": d.drill_id,
            "mode": d.mode,
            "text": d.text,
            "elapsed_seconds": d.elapsed_seconds,
            "saved_at": to_iso(d.saved_at),
            "keystrokes": d.keystrokes,
            "typing_keystrokes": d.typing_keystrokes,
            "typing_errors": d.typing_errors,
            "costly_keys": None if d.costly_keys is None else [list(pair) for pair in d.costly_keys],
            "started_at": None if d.started_at is None else to_iso(d.started_at),
            "submissions": d.submissions,
        }
        return validated(cls, values, f"draft of {d.drill_id!r}")


class ConceptResultRecord(Struct, forbid_unknown_fields=True):
    """How one graded submission did on one concept (failed tests named; none when passed)."""

    id: RowId
    drill_id: ItemId
    origin: Origin
    at: TimeText
    concept: ConceptId
    failed_tests: Annotated[list[Annotated[str, Meta(max_length=10_000)]], Meta(max_length=10_000)]

    def __post_init__(self) -> None:
        check_time(self.at, "at")

    def to_record(self) -> ConceptResult:
        return ConceptResult(
            self.drill_id, self.origin, check_time(self.at, "at"), self.concept, tuple(self.failed_tests), self.id
        )

    @classmethod
    def of(cls, r: ConceptResult) -> ConceptResultRecord:
        """The validated record of a concept result about to be stored."""
        values = {
            "id": 1 if r.id is None else r.id,
            "drill_id": r.drill_id,
            "origin": r.origin,
            "at": to_iso(r.at),
            "concept": r.concept,
            "failed_tests": list(r.failed_tests),
        }
        return validated(cls, values, f"concept result {r.concept!r} of {r.drill_id!r}")


class MockAnswerRecord(Struct, forbid_unknown_fields=True):
    """One typed answer of a mock round."""

    card_id: ItemId
    follow_up: Annotated[int, Meta(ge=0, le=1000)] | None
    answer: Text
    covered: Count
    total: Count

    def __post_init__(self) -> None:
        if self.covered > self.total:
            raise ValueError(f"covered: {self.covered} is more than the {self.total} key points checked")


class MockRoundRecord(Struct, forbid_unknown_fields=True):
    """One mock interview round."""

    id: RowId
    started_at: TimeText
    ended_at: TimeText
    clock_seconds: PositiveCount
    drill_id: ItemId
    drill_target_seconds: PositiveCount
    drill_passed: bool
    drill_seconds: Seconds | None
    answers: Annotated[list[MockAnswerRecord], Meta(max_length=100)]
    concepts_missed: Annotated[list[ConceptId], Meta(max_length=1000)]

    def __post_init__(self) -> None:
        check_time(self.started_at, "started_at")
        check_time(self.ended_at, "ended_at")

    def to_record(self) -> MockRound:
        return MockRound(
            started_at=check_time(self.started_at, "started_at"),
            ended_at=check_time(self.ended_at, "ended_at"),
            clock_seconds=self.clock_seconds,
            drill_id=self.drill_id,
            drill_target_seconds=self.drill_target_seconds,
            drill_passed=self.drill_passed,
            drill_seconds=self.drill_seconds,
            answers=tuple(MockAnswer(a.card_id, a.follow_up, a.answer, a.covered, a.total) for a in self.answers),
            concepts_missed=tuple(self.concepts_missed),
            id=self.id,
        )

    @classmethod
    def of(cls, m: MockRound) -> MockRoundRecord:
        """The validated record of a mock round about to be stored."""
        values = {
            "id": 1 if m.id is None else m.id,
            "started_at": to_iso(m.started_at),
            "ended_at": to_iso(m.ended_at),
            "clock_seconds": m.clock_seconds,
            "drill_id": m.drill_id,
            "drill_target_seconds": m.drill_target_seconds,
            "drill_passed": m.drill_passed,
            "drill_seconds": m.drill_seconds,
            "answers": [
                {
                    "card_id": a.card_id,
                    "follow_up": a.follow_up,
                    "answer": a.answer,
                    "covered": a.covered,
                    "total": a.total,
                }
                for a in m.answers
            ],
            "concepts_missed": list(m.concepts_missed),
        }
        return validated(cls, values, "mock round")


class StartRecord(Struct, forbid_unknown_fields=True):
    """A drill started in the user's own editor."""

    drill_id: ItemId
    mode: Mode
    path: Annotated[str, Meta(min_length=1, max_length=4096)]
    started_at: TimeText
    checks: Count
    checked_at: TimeText | None = None
    source_hash: Annotated[str, Meta(max_length=128)] | None = None
    passed_at: TimeText | None = None

    def __post_init__(self) -> None:
        check_time(self.started_at, "started_at")
        for name in ("checked_at", "passed_at"):
            value = getattr(self, name)
            if value is not None:
                check_time(value, name)

    def to_record(self) -> Start:
        return Start(
            self.drill_id,
            self.mode,
            self.path,
            check_time(self.started_at, "started_at"),
            self.checks,
            None if self.checked_at is None else check_time(self.checked_at, "checked_at"),
            self.source_hash,
            None if self.passed_at is None else check_time(self.passed_at, "passed_at"),
        )

    @classmethod
    def of(cls, s: Start) -> StartRecord:
        """The validated record of a start about to be stored."""
        values = {
            "drill_id": s.drill_id,
            "mode": s.mode,
            "path": s.path,
            "started_at": to_iso(s.started_at),
            "checks": s.checks,
            "checked_at": None if s.checked_at is None else to_iso(s.checked_at),
            "source_hash": s.source_hash,
            "passed_at": None if s.passed_at is None else to_iso(s.passed_at),
        }
        return validated(cls, values, f"start of {s.drill_id!r}")


class DocumentHead(Struct):
    """The top level of an export document; each table's records are decoded one by one."""

    format: str
    format_version: int
    schema_version: int
    exported_at: str
    settings: dict[str, msgspec.Raw]
    attempts: list[msgspec.Raw]
    reviews: list[msgspec.Raw]
    schedule: list[msgspec.Raw]
    drafts: list[msgspec.Raw]
    concept_results: list[msgspec.Raw] = []
    mock_rounds: list[msgspec.Raw] = []
    starts: list[msgspec.Raw] = []


RECORD_TYPES: dict[str, type[Struct]] = {
    "attempts": AttemptRecord,
    "reviews": ReviewRecord,
    "schedule": ScheduleRecord,
    "drafts": DraftRecord,
    "concept_results": ConceptResultRecord,
    "mock_rounds": MockRoundRecord,
    "starts": StartRecord,
}
TABLES = tuple(RECORD_TYPES)
COLUMNS: dict[str, tuple[str, ...]] = {table: tuple(t.__struct_fields__) for table, t in RECORD_TYPES.items()}
JSON_COLUMNS = frozenset(
    {"tests", "state", "state_before", "state_after", "costly_keys", "failed_tests", "answers", "concepts_missed"}
)
BOOL_COLUMNS = frozenset({"passed", "drill_passed"})


class InvalidRecord(ValueError):
    """A record (about to be stored, or imported) that does not fit the schema: ``where`` names it."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


class RowProblem(InvalidRecord):
    """A row read from the database that does not fit the schema: the file is damaged."""


def error_parts(exc: msgspec.ValidationError | msgspec.DecodeError) -> tuple[str, str]:
    """(path, message) of a msgspec error: ``$.tests[2].outcome`` becomes ``tests[2].outcome``,
    and a missing field is named in the path (message ``missing``)."""
    text = str(exc)
    path = ""
    match = re.fullmatch(r"(.*) - at `\$(.*)`", text, flags=re.DOTALL)
    if match:
        text, path = match.group(1), match.group(2).lstrip(".")
    named = re.fullmatch(r"([a-z_]+): (.*)", text, flags=re.DOTALL)  # raised by a record's own checks
    if named:
        path, text = join_path(path, named.group(1)), named.group(2)
    missing = re.fullmatch(r"Object missing required field `(.*)`", text)
    if missing:
        path = join_path(path, missing.group(1))
        text = "missing"
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", text)
    if unknown:
        path = join_path(path, unknown.group(1))
        text = "unknown field"
    return path, text


def join_path(where: str, path: str) -> str:
    """``where`` and a field path below it, as ``attempts[3].tests[0].name``."""
    if not path:
        return where
    if not where:
        return path
    return f"{where}{path}" if path.startswith("[") else f"{where}.{path}"


def error_text(exc: msgspec.ValidationError | msgspec.DecodeError, where: str = "") -> str:
    """``where.path: message`` of a msgspec error."""
    path, message = error_parts(exc)
    full = join_path(where, path)
    return f"{full}: {message}" if full else message


def validated(kind: type[S], values: dict[str, Any], where: str) -> S:
    """``values`` (plain Python data) as a validated record of type ``kind``; InvalidRecord if not."""
    try:
        return msgspec.convert(values, kind, strict=True)
    except msgspec.ValidationError as exc:
        path, message = error_parts(exc)
        raise InvalidRecord(join_path(where, path), message) from None
    except RecursionError:
        raise InvalidRecord(where, "nested too deeply") from None


def decode_record(table: str, data: bytes | msgspec.Raw, where: str) -> Struct:
    """One record of ``table`` from its JSON bytes; InvalidRecord naming ``where`` and the field."""
    try:
        return msgspec.json.decode(data, type=RECORD_TYPES[table])
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        path, message = error_parts(exc)
        raise InvalidRecord(join_path(where, path), message) from None
    except RecursionError:
        raise InvalidRecord(where, "nested too deeply") from None


def decode_row(table: str, row: tuple[Any, ...], where: str) -> Any:
    """The validated record of a database row selected with ``COLUMNS[table]``."""
    values: dict[str, Any] = {}
    for column, value in zip(COLUMNS[table], row, strict=True):
        if column in JSON_COLUMNS and value is not None:
            if not isinstance(value, str):
                raise RowProblem(where, f"{column}: expected JSON text, got {type(value).__name__}")
            try:
                value = msgspec.json.decode(value)
            except (msgspec.DecodeError, RecursionError):
                raise RowProblem(where, f"{column}: not valid JSON") from None
        elif column in BOOL_COLUMNS:
            if value not in (0, 1) or isinstance(value, float):
                raise RowProblem(where, f"{column}: expected 0 or 1, got {value!r}")
            value = bool(value)
        elif isinstance(value, bytes):
            raise RowProblem(where, f"{column}: unexpected binary value")
        elif isinstance(value, float) and not math.isfinite(value):
            raise RowProblem(where, f"{column}: not a finite number")
        values[column] = value
    try:
        return validated(RECORD_TYPES[table], values, where)
    except InvalidRecord as exc:
        raise RowProblem(exc.where, exc.message) from None


def row_values(table: str, record: Struct) -> tuple[Any, ...]:
    """Database column values (in ``COLUMNS[table]`` order) of a validated record."""
    out: list[Any] = []
    for column in COLUMNS[table]:
        value = getattr(record, column)
        if column in JSON_COLUMNS and value is not None:
            value = msgspec.json.encode(value).decode("utf-8")
        elif column in BOOL_COLUMNS:
            value = int(value)
        out.append(value)
    return tuple(out)


def record_json(record: Struct) -> dict[str, Any]:
    """The JSON-ready dict of a record, as written to an export."""
    result: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(record))
    return result
