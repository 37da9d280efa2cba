"""Practice writes as write-queue jobs (:class:`tokdrill.progress.write_queue.Job`), and the
same jobs rebuilt from the journal a previous run left behind.

Every job is safe to apply twice (a run killed between the commit and the journal update
replays it): an attempt or a review already stored is skipped, a draft older than the stored
one is not written back, and a draft is cleared only if it was saved before the clearing.
"""

from __future__ import annotations

from datetime import datetime

import msgspec
from msgspec.structs import replace

from tokdrill.clock import Clock
from tokdrill.progress import settings as keys
from tokdrill.progress.document import (
    AttemptRecord,
    ConceptResultRecord,
    DraftRecord,
    MockRoundRecord,
    StartRecord,
    check_time,
    record_json,
    validated,
)
from tokdrill.progress.records import MODES, Attempt, ConceptResult, Draft, MockRound, Mode, Start, to_iso
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import Job, JournalEntry
from tokdrill.scheduling.planner import Planner


def attempt_job(attempt: Attempt, clock: Clock) -> Job:
    """Record a finished attempt (rated and rescheduled) unless it is already stored."""

    def run(store: Store) -> None:
        with store.write() as w:
            if not w.has_attempt(attempt):
                Planner(store, clock).record_attempt(attempt)

    record = AttemptRecord.of(replace(attempt, id=None))  # validated now: a bad one is refused to the caller
    return Job(f"your attempt at {attempt.drill_id}", {"op": "attempt", "attempt": record_json(record)}, run)


def concept_results_job(results: tuple[ConceptResult, ...]) -> Job:
    """Record how one graded submission did on each of its concepts unless already stored."""
    records = [ConceptResultRecord.of(r) for r in results]  # validated now

    def run(store: Store) -> None:
        with store.write() as w:
            if results and not w.has_concept_results(results[0].drill_id, results[0].at):
                w.insert_concept_results(results)

    drill = results[0].drill_id if results else "a drill"
    entry = {"op": "concept_results", "results": [record_json(r) for r in records]}
    return Job(f"the concepts of your submission to {drill}", entry, run)


def mock_round_job(mock: MockRound) -> Job:
    """Record a mock round unless one that started at the same moment is stored."""
    record = MockRoundRecord.of(mock)

    def run(store: Store) -> None:
        with store.write() as w:
            w.insert_mock_round(mock)

    return Job("your mock round", {"op": "mock_round", "mock": record_json(record)}, run)


def review_job(card_id: str, rating: int, answer_seconds: float, at: datetime, clock: Clock) -> Job:
    """Record a card review made ``at`` unless it is already stored."""
    if not 1 <= rating <= 4:
        raise ValueError(f"rating must be 1..4, got {rating!r}")

    def run(store: Store) -> None:
        with store.write() as w:
            if w.review_made(card_id, at) is None:
                Planner(store, clock).review_card(card_id, rating, answer_seconds, at=at)

    entry = {"op": "review", "card_id": card_id, "rating": rating, "answer_seconds": answer_seconds, "at": to_iso(at)}
    return Job(f"your rating of card {card_id}", entry, run)


def undo_job(card_id: str, at: datetime, clock: Clock) -> Job:
    """Undo the review of ``card_id`` made ``at``; nothing once it is undone (safe to replay)."""

    def run(store: Store) -> None:
        Planner(store, clock).undo_review(card_id, at)

    entry = {"op": "undo", "card_id": card_id, "at": to_iso(at)}
    return Job(f"undoing your rating of card {card_id}", entry, run)


def _undo_newest_job(since: datetime | None, clock: Clock) -> Job:
    """Undo the newest review made at or after ``since``: how journals of earlier versions,
    which did not name the review, recorded an undo."""

    def run(store: Store) -> None:
        Planner(store, clock).undo_last_review(since)

    entry = {"op": "undo", "since": None if since is None else to_iso(since)}
    return Job("undoing your last rating", entry, run)


def draft_job(draft: Draft) -> Job:
    """Save a draft unless a newer one is stored; replaces a pending save of the same draft."""
    record = DraftRecord.of(draft)

    def run(store: Store) -> None:
        with store.write() as w:
            stored = w.draft_saved_at(draft.drill_id, draft.mode)
            if stored is None or stored <= record.saved_at:
                w.save_draft(draft)

    return Job(
        f"your draft of {draft.drill_id}",
        {"op": "draft", "draft": record_json(record)},
        run,
        replaces=("draft", draft.drill_id, draft.mode),
    )


def clear_draft_job(drill_id: str, mode: Mode, at: datetime) -> Job:
    """Delete the draft of (drill, mode) if it was saved at or before ``at``."""
    stamp = to_iso(at)

    def run(store: Store) -> None:
        with store.write() as w:
            stored = w.draft_saved_at(drill_id, mode)
            if stored is not None and stored <= stamp:
                w.clear_draft(drill_id, mode)

    entry = {"op": "clear_draft", "drill_id": drill_id, "mode": mode, "at": stamp}
    return Job(f"discarding your draft of {drill_id}", entry, run, replaces=("draft", drill_id, mode))


def start_job(start: Start) -> Job:
    """Store a drill's start in the user's own editor as it is now (replacing what is stored:
    jobs run in the order they were made, a journal's before a new run's, whatever the clock
    says)."""
    record = StartRecord.of(start)  # validated now

    def run(store: Store) -> None:
        with store.write() as w:
            w.put_start(start)

    return Job(
        f"your start of {start.drill_id}",
        {"op": "start", "start": record_json(record)},
        run,
        replaces=("start", start.drill_id),
    )


def setting_job(key: str, value: object) -> Job:
    """Store a setting (validated now); replaces a pending change of the same setting."""
    checked = keys.validate_setting(key, value)

    def run(store: Store) -> None:
        store.set_setting(key, checked)

    return Job(f"the setting {key}", {"op": "setting", "key": key, "value": checked}, run, replaces=("setting", key))


def job_from_entry(entry: JournalEntry, clock: Clock) -> Job:
    """The job a journal line stands for; ValueError naming the problem for anything else."""
    op = entry.get("op")
    try:
        if op == "attempt":
            attempt: AttemptRecord = validated(AttemptRecord, entry["attempt"], "attempt")
            return attempt_job(replace(attempt.to_record(), id=None), clock)
        if op == "concept_results":
            results = entry["results"]
            if not isinstance(results, list):
                raise ValueError("concept_results: results must be a list")
            return concept_results_job(
                tuple(
                    replace(validated(ConceptResultRecord, r, "concept result").to_record(), id=None) for r in results
                )
            )
        if op == "mock_round":
            mock: MockRoundRecord = validated(MockRoundRecord, entry["mock"], "mock round")
            return mock_round_job(replace(mock.to_record(), id=None))
        if op == "review":
            rating, seconds = entry["rating"], entry["answer_seconds"]
            if not isinstance(rating, int) or isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise ValueError("review: rating and answer_seconds must be numbers")
            card = entry["card_id"]
            if not isinstance(card, str) or not card:
                raise ValueError("review: card_id must be text")
            return review_job(card, rating, max(0.0, float(seconds)), check_time(entry["at"], "at"), clock)
        if op == "undo":
            if "card_id" not in entry:
                since = entry["since"]
                return _undo_newest_job(None if since is None else check_time(since, "since"), clock)
            card = entry["card_id"]
            if not isinstance(card, str) or not card:
                raise ValueError("undo: card_id must be text")
            return undo_job(card, check_time(entry["at"], "at"), clock)
        if op == "draft":
            draft: DraftRecord = validated(DraftRecord, entry["draft"], "draft")
            return draft_job(draft.to_record())
        if op == "clear_draft":
            mode = entry["mode"]
            if mode not in MODES or not isinstance(entry["drill_id"], str):
                raise ValueError("clear_draft: bad drill or mode")
            return clear_draft_job(entry["drill_id"], mode, check_time(entry["at"], "at"))
        if op == "start":
            start: StartRecord = validated(StartRecord, entry["start"], "start")
            return start_job(start.to_record())
        if op == "setting":
            return setting_job(str(entry["key"]), entry["value"])
    except (KeyError, TypeError, msgspec.ValidationError) as exc:
        raise ValueError(f"{op}: incomplete entry ({exc})") from None
    raise ValueError(f"unknown operation {op!r}")
